/**
 * The direct-debit details form in steps (issue 25, DD-01, decision 079): without script it is one form
 * with two fieldsets (the account, the mobile number) posted at once; with this script the member sees one
 * fieldset at a time. 'Next' checks the account fields in the browser (filled in, the IBAN's shape and
 * check digits) and says what is wrong next to each field, with the server's own texts (`data-msg-*`);
 * the server still checks everything when the form is posted. Plain DOM, no framework.
 */

/** ISO 13616 check digits: the IBAN moved 4 characters, letters as numbers, modulo 97 must be 1. */
export function ibanChecksumOk(electronic: string): boolean {
  const moved = electronic.slice(4) + electronic.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const n = ch >= 'A' && ch <= 'Z' ? ch.charCodeAt(0) - 55 : Number(ch);
    rest = (rest * (n > 9 ? 100 : 10) + n) % 97;
  }
  return rest === 1;
}

/** What is wrong with an IBAN as typed: null (fine as far as the browser can tell), 'invalid' or 'iban_checksum'. */
export function ibanProblem(typed: string): 'invalid' | 'iban_checksum' | null {
  const iban = typed.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{8,30}$/.test(iban)) return 'invalid';
  return ibanChecksumOk(iban) ? null : 'iban_checksum';
}

export function wireDirectDebitSteps(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-start-step]');
  const steps = form ? [...form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-dd-step]')] : [];
  const indicator = doc.querySelector<HTMLElement>('[data-dd-steps]');
  if (!form || steps.length !== 2) return;
  const [first, second] = steps as [HTMLFieldSetElement, HTMLFieldSetElement];
  const msg = form.dataset;
  const next = form.querySelector<HTMLButtonElement>('[data-dd-next]');
  const back = form.querySelector<HTMLButtonElement>('[data-dd-back]');
  let current = form.dataset.startStep === '2' ? 2 : 1;

  const show = (step: number, focus: boolean) => {
    current = step;
    first.hidden = step !== 1;
    second.hidden = step !== 2;
    if (indicator) {
      indicator.dataset.step = String(step);
      const label = indicator.querySelector<HTMLElement>('[data-dd-step-label]');
      if (label?.dataset.template) label.textContent = label.dataset.template.replace('{step}', String(step));
      indicator.querySelectorAll<HTMLElement>('[data-dd-step-name]').forEach((li) => {
        const n = Number(li.dataset.ddStepName);
        li.toggleAttribute('data-done', n < step);
        if (n === step) li.setAttribute('aria-current', 'step');
        else li.removeAttribute('aria-current');
      });
    }
    if (focus) (step === 1 ? first : second).querySelector<HTMLInputElement>('input:not([type=hidden])')?.focus();
  };

  /** Shows (or clears) a field's error the way FormField.astro renders a server's. */
  const setError = (input: HTMLInputElement, text: string | null) => {
    const id = `${input.id}-error`;
    let box = doc.getElementById(id);
    if (!text) {
      box?.remove();
      input.classList.remove('is-invalid');
      input.removeAttribute('aria-invalid');
      const rest = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((x) => x && x !== id);
      if (rest.length > 0) input.setAttribute('aria-describedby', rest.join(' '));
      else input.removeAttribute('aria-describedby');
      return;
    }
    if (!box) {
      box = doc.createElement('div');
      box.className = 'invalid-feedback';
      box.id = id;
      box.dataset.fieldError = input.name;
      input.after(box);
    }
    box.textContent = text;
    input.classList.add('is-invalid');
    input.setAttribute('aria-invalid', 'true');
    const described = new Set((input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean));
    described.add(id);
    input.setAttribute('aria-describedby', [...described].join(' '));
  };

  const problem = (input: HTMLInputElement): string | null => {
    const value = input.value.trim();
    if (value === '') return msg.msgRequired ?? '';
    if (input.name === 'iban') {
      const p = ibanProblem(value);
      if (p === 'iban_checksum') return msg.msgIbanChecksum ?? '';
      if (p) return msg.msgInvalid ?? '';
    }
    return null;
  };

  /** Checks a step's fields; focuses the first that is wrong. */
  const check = (step: HTMLFieldSetElement): boolean => {
    let firstWrong: HTMLInputElement | null = null;
    for (const input of step.querySelectorAll<HTMLInputElement>('input.form-control')) {
      const text = problem(input);
      setError(input, text);
      if (text && !firstWrong) firstWrong = input;
    }
    firstWrong?.focus();
    return firstWrong === null;
  };

  next?.parentElement?.removeAttribute('hidden');
  back?.removeAttribute('hidden');
  show(current, false);
  next?.addEventListener('click', () => {
    if (check(first)) show(2, true);
  });
  back?.addEventListener('click', () => show(1, true));
  // A field corrected after its error: the error goes as soon as the value is fine.
  form.addEventListener('change', (e) => {
    const input = e.target as HTMLInputElement;
    if (input.classList.contains('is-invalid') && problem(input) === null) setError(input, null);
  });
  form.addEventListener('submit', (e) => {
    // Enter in a field of the first step moves on to the second; the form is posted from the second.
    if (current === 1) {
      e.preventDefault();
      if (check(first)) show(2, true);
      return;
    }
    if (!check(second)) e.preventDefault();
  });
}
