/**
 * Multi-upload with a preview and a progress bar per file (PHO-03, decision 043), over the server form of
 * PhotoManager.astro: the chosen (or dropped) files go one by one to /api/photos.php with
 * XMLHttpRequest, whose upload events give the progress; the server's answer (or its refusal, such as
 * the photo limit) shows beside each file. When all are in, the page loads again to list them. Without
 * this script the same form posts all files at once. Plain DOM, no framework (budgets.json 'members').
 * Issue 25 (decision 079): a file that is too big or not a photo is refused here, before anything is sent,
 * with a friendly text; one photo chosen on its own opens a crop box (portrait 4:5 or square) drawn on a
 * canvas, which the member moves by dragging or with the arrow keys, and the cropped part is what is sent.
 * The server's upload rules are unchanged: it checks and resizes whatever arrives.
 */

export const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** A crop box (x, y, width, height, in the photo's pixels) of `aspect` (width / height), as large as fits, centred. */
export function fitBox(iw: number, ih: number, aspect: number): [number, number, number, number] {
  const w = Math.min(iw, ih * aspect);
  const h = w / aspect;
  return [(iw - w) / 2, (ih - h) / 2, w, h];
}

/** The box moved by (dx, dy), kept inside the photo. */
export function moveBox(box: [number, number, number, number], dx: number, dy: number, iw: number, ih: number): [number, number, number, number] {
  const [x, y, w, h] = box;
  return [Math.min(Math.max(0, x + dx), iw - w), Math.min(Math.max(0, y + dy), ih - h), w, h];
}

export interface Cropper {
  file(): Promise<File | null>;
}

/** The crop box over `file` on the form's canvas; null when the photo cannot be read. */
export function openCropper(doc: Document, panel: HTMLElement, file: File, onFail: () => void): Cropper {
  const canvas = panel.querySelector('canvas')!;
  const ctx = canvas.getContext('2d')!;
  const img = new Image();
  const url = URL.createObjectURL(file);
  let aspect = 0.8;
  let box: [number, number, number, number] = [0, 0, 0, 0];
  const draw = () => {
    if (!img.naturalWidth) return;
    const iw = img.naturalWidth;
    const ih = img.naturalHeight;
    // Drawn at 360 CSS pixels wide at most (the stylesheet sizes the canvas), sharp on dense screens.
    const k = (Math.min(panel.clientWidth || 320, 360) * (devicePixelRatio || 1)) / iw;
    canvas.width = Math.round(iw * k);
    canvas.height = Math.round(ih * k);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    ctx.fillStyle = 'rgba(0,0,0,.55)';
    ctx.beginPath();
    ctx.rect(0, 0, canvas.width, canvas.height);
    ctx.rect(box[0] * k, box[1] * k, box[2] * k, box[3] * k);
    ctx.fill('evenodd');
    ctx.strokeStyle = '#fff';
    ctx.lineWidth = 2 * (devicePixelRatio || 1);
    ctx.strokeRect(box[0] * k, box[1] * k, box[2] * k, box[3] * k);
    canvas.dataset.cropBox = box.map(Math.round).join(',');
  };
  const fit = () => {
    box = fitBox(img.naturalWidth, img.naturalHeight, aspect);
    draw();
  };
  const move = (dx: number, dy: number) => {
    box = moveBox(box, dx, dy, img.naturalWidth, img.naturalHeight);
    draw();
  };
  img.onload = () => {
    panel.hidden = false;
    fit();
  };
  img.onerror = onFail;
  img.src = url;
  panel.onchange = (e) => {
    aspect = Number((e.target as HTMLInputElement).value) || 0.8;
    fit();
  };
  let last: [number, number] | null = null;
  canvas.onpointerdown = (e) => {
    canvas.setPointerCapture(e.pointerId);
    last = [e.clientX, e.clientY];
  };
  canvas.onpointermove = (e) => {
    if (!last) return;
    const scale = canvas.getBoundingClientRect().width / img.naturalWidth;
    move((e.clientX - last[0]) / scale, (e.clientY - last[1]) / scale);
    last = [e.clientX, e.clientY];
  };
  canvas.onpointerup = canvas.onpointercancel = () => (last = null);
  canvas.onkeydown = (e) => {
    const step = Math.max(img.naturalWidth, img.naturalHeight) / 20;
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (!d) return;
    e.preventDefault();
    move(d[0]!, d[1]!);
  };
  return {
    file: () =>
      new Promise((resolve) => {
        const out = doc.createElement('canvas');
        const f = Math.min(1, 2000 / Math.max(box[2], box[3]));
        out.width = Math.round(box[2] * f);
        out.height = Math.round(box[3] * f);
        out.getContext('2d')!.drawImage(img, box[0], box[1], box[2], box[3], 0, 0, out.width, out.height);
        URL.revokeObjectURL(url);
        out.toBlob((blob) => resolve(blob && new File([blob], file.name.replace(/\.\w+$/, '') + '.jpg', { type: 'image/jpeg' })), 'image/jpeg', 0.9);
      }),
  };
}

export function wirePhotoUpload(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-photo-upload]');
  const input = form?.querySelector<HTMLInputElement>('input[type=file]');
  const list = form?.querySelector<HTMLElement>('[data-upload-list]');
  if (!form || !input || !list || !('upload' in XMLHttpRequest.prototype)) return;
  const text = form.dataset;
  const button = form.querySelector<HTMLButtonElement>('[data-upload-submit]');
  const panel = form.querySelector<HTMLElement>('[data-crop]');
  let busy = false;
  let cropper: Cropper | null = null;

  /** A friendly line in the list for a file refused before sending. */
  const refuse = (file: File, message: string) => {
    const item = doc.createElement('li');
    item.className = 'small text-danger mb-1';
    item.dataset.uploadError = '';
    item.textContent = message.replace('{name}', file.name);
    list.append(item);
  };
  /** The files that may be sent; the others are named with the reason. One photo alone gets the crop box. */
  const choose = (files: File[]): File[] => {
    list.replaceChildren();
    const ok = files.filter((f) => {
      const why = f.size > Number(text.maxBytes) ? text.textTooBig : f.type && !TYPES.includes(f.type) ? text.textWrongType : null;
      if (why) refuse(f, why);
      return !why;
    });
    cropper = null;
    if (panel) {
      panel.hidden = true;
      if (ok.length === 1 && files.length === 1) cropper = openCropper(doc, panel, ok[0]!, () => ((cropper = null), (panel.hidden = true)));
    }
    return ok;
  };
  input.addEventListener('change', () => choose([...(input.files ?? [])]));

  const sendOne = (file: File): Promise<boolean> => {
    const item = doc.createElement('li');
    item.className = 'd-flex align-items-center gap-2 mb-1';
    const preview = doc.createElement('img');
    preview.width = 40;
    preview.height = 50;
    preview.alt = '';
    preview.className = 'rounded';
    const url = URL.createObjectURL(file);
    preview.src = url;
    const label = doc.createElement('span');
    label.className = 'small flex-grow-1 text-break';
    label.textContent = (text.textUploading ?? '').replace('{name}', file.name);
    const bar = doc.createElement('progress');
    bar.max = 100;
    bar.value = 0;
    bar.setAttribute('aria-label', label.textContent);
    item.append(preview, label, bar);
    list.append(item);
    // One key per chosen file: a retry after a lost answer (a server restarting, a dropped connection)
    // answers the photo stored the first time instead of storing it twice (SCALE-02).
    const clientId = crypto.randomUUID();
    const finish = (ok: boolean, message?: string) => {
      if (ok) bar.value = 100;
      item.dataset.result = ok ? 'ok' : 'error';
      label.textContent = `${file.name}: ${ok ? text.textDone : `${text.textFailed}. ${message ?? text.textGeneric}`}`;
      label.classList.toggle('text-danger', !ok);
      URL.revokeObjectURL(url);
    };
    const attempt = (triesLeft: number): Promise<boolean> =>
      new Promise((resolve) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/photos.php');
        xhr.responseType = 'json';
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100);
        };
        const failedInTransit = () => (triesLeft > 0 ? resolve(attempt(triesLeft - 1)) : (finish(false), resolve(false)));
        xhr.onload = () => {
          if (xhr.status >= 502 && xhr.status <= 504) return failedInTransit();
          const ok = xhr.status === 201 || xhr.status === 200;
          finish(ok, (xhr.response as { message?: string } | null)?.message);
          resolve(ok);
        };
        xhr.onerror = failedInTransit;
        const body = new FormData();
        body.append('photo', file);
        body.append('client_id', clientId);
        xhr.send(body);
      });
    return attempt(1);
  };

  const sendAll = async (files: File[]) => {
    if (busy || files.length === 0) return;
    busy = true;
    if (button) button.disabled = true;
    if (cropper) files = [(await cropper.file()) ?? files[0]!];
    cropper = null;
    if (panel) panel.hidden = true;
    list.replaceChildren();
    let sent = 0;
    let failed = false;
    for (const file of files) {
      if (await sendOne(file)) sent++;
      else failed = true;
    }
    busy = false;
    if (button) button.disabled = false;
    input.value = '';
    if (!failed) {
      setTimeout(() => location.assign(`/profile?photos=uploaded&n=${sent}#photos`), 1200);
      return;
    }
    const more = doc.createElement('a');
    more.href = '/profile#photos';
    more.textContent = text.textShow ?? '';
    more.dataset.uploadShow = '';
    list.append(more);
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const files = [...(input.files ?? [])];
    const ok = cropper ? files : choose(files);
    if (ok.length > 0) void sendAll(ok);
  });
  form.addEventListener('dragover', (e) => {
    e.preventDefault();
    form.classList.add('border-primary');
  });
  form.addEventListener('dragleave', () => form.classList.remove('border-primary'));
  form.addEventListener('drop', (e) => {
    e.preventDefault();
    form.classList.remove('border-primary');
    const files = [...(e.dataTransfer?.files ?? [])];
    const ok = choose(files);
    // Several photos go at once, as before; one alone waits in the crop box for the button.
    if (ok.length > 1) void sendAll(ok);
    else if (ok.length === 1 && typeof DataTransfer === 'function') {
      const kept = new DataTransfer();
      kept.items.add(ok[0]!);
      input.files = kept.files;
    }
  });
}
