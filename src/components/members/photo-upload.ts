/**
 * Multi-upload with a preview and a progress bar per file (PHO-03, decision 043), over the server form of
 * PhotoManager.astro: the chosen (or dropped) files go one by one to /api/photos.php with
 * XMLHttpRequest, whose upload events give the progress; the server's answer (or its refusal, such as
 * the photo limit) shows beside each file. When all are in, the page loads again to list them. Without
 * this script the same form posts all files at once. Plain DOM, no framework (budgets.json 'members').
 */
export function wirePhotoUpload(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-photo-upload]');
  const input = form?.querySelector<HTMLInputElement>('input[type=file]');
  const list = form?.querySelector<HTMLElement>('[data-upload-list]');
  if (!form || !input || !list || !('upload' in XMLHttpRequest.prototype)) return;
  const text = form.dataset;
  const button = form.querySelector<HTMLButtonElement>('[data-upload-submit]');
  let busy = false;

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
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/api/photos.php');
      xhr.responseType = 'json';
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100);
      };
      const finish = (ok: boolean, message?: string) => {
        if (ok) bar.value = 100;
        item.dataset.result = ok ? 'ok' : 'error';
        label.textContent = `${file.name}: ${ok ? text.textDone : `${text.textFailed}. ${message ?? text.textGeneric}`}`;
        label.classList.toggle('text-danger', !ok);
        URL.revokeObjectURL(url);
        resolve(ok);
      };
      xhr.onload = () => finish(xhr.status === 201, (xhr.response as { message?: string } | null)?.message);
      xhr.onerror = () => finish(false);
      const body = new FormData();
      body.append('photo', file);
      xhr.send(body);
    });
  };

  const sendAll = async (files: File[]) => {
    if (busy || files.length === 0) return;
    busy = true;
    if (button) button.disabled = true;
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
    void sendAll([...(input.files ?? [])]);
  });
  form.addEventListener('dragover', (e) => {
    e.preventDefault();
    form.classList.add('border-primary');
  });
  form.addEventListener('dragleave', () => form.classList.remove('border-primary'));
  form.addEventListener('drop', (e) => {
    e.preventDefault();
    form.classList.remove('border-primary');
    void sendAll([...(e.dataTransfer?.files ?? [])].filter((f) => f.type.startsWith('image/') || f.type === ''));
  });
}
