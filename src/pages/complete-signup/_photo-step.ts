/**
 * The photo step of /complete-signup with script (issue 25, decision 079): the chosen photo is checked
 * (size, type) before sending, shown in the crop box of the profile's upload (photo-upload.ts), and the
 * cropped photo is posted with the same form fields by XMLHttpRequest, whose upload events fill the
 * progress bar. The server answers as to the plain form: a redirect to the next step, which the page then
 * loads; a refusal is posted once more as the plain form, so the page shows it as without script.
 */
import { openCropper, TYPES, type Cropper } from '../../components/members/photo-upload';

export function wirePhotoStep(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-photo-form]');
  const input = form?.querySelector<HTMLInputElement>('input[type=file]');
  const panel = form?.querySelector<HTMLElement>('[data-crop]');
  const bar = form?.querySelector<HTMLProgressElement>('[data-step-progress]');
  const note = form?.querySelector<HTMLElement>('[data-step-note]');
  if (!form || !input || !panel || !bar || !note || typeof DataTransfer !== 'function') return;
  const text = form.dataset;
  let cropper: Cropper | null = null;
  let busy = false;

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    cropper = null;
    panel.hidden = true;
    note.textContent = '';
    if (!file) return;
    const why = file.size > Number(text.maxBytes) ? text.textTooBig : file.type && !TYPES.includes(file.type) ? text.textWrongType : null;
    if (why) {
      note.textContent = why.replace('{name}', file.name);
      input.value = '';
      return;
    }
    cropper = openCropper(doc, panel, file, () => ((cropper = null), (panel.hidden = true)));
  });

  form.addEventListener('submit', (e) => {
    if (!cropper || busy) return;
    e.preventDefault();
    busy = true;
    void cropper.file().then((cropped) => {
      if (cropped) {
        const kept = new DataTransfer();
        kept.items.add(cropped);
        input.files = kept.files;
      }
      const xhr = new XMLHttpRequest();
      xhr.open('POST', form.action || location.href);
      bar.hidden = false;
      xhr.upload.onprogress = (p) => {
        if (p.lengthComputable) bar.value = Math.round((p.loaded / p.total) * 100);
      };
      xhr.onload = () => {
        if (xhr.status < 300 && xhr.responseURL) location.assign(xhr.responseURL);
        else form.submit();
      };
      xhr.onerror = () => form.submit();
      xhr.send(new FormData(form));
    });
  });
}
