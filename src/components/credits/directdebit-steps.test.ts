import { describe, expect, it } from 'vitest';
import { ibanProblem } from './directdebit-steps';
import { fitBox, moveBox } from '../members/photo-upload';

describe('the direct-debit steps check an IBAN in the browser as the server does (DD-01)', () => {
  it('accepts a correct IBAN as typed with spaces, refuses wrong check digits and a malformed one', () => {
    expect(ibanProblem('NL91 ABNA 0417 1643 00')).toBeNull();
    expect(ibanProblem('de89 3704 0044 0532 0130 00')).toBeNull();
    expect(ibanProblem('NL91 ABNA 0417 1643 01')).toBe('iban_checksum');
    expect(ibanProblem('12345')).toBe('invalid');
  });
});

describe('the photo crop box', () => {
  it('is as large as fits in its shape, centred, and stays inside the photo when moved', () => {
    expect(fitBox(1200, 600, 0.8)).toEqual([360, 0, 480, 600]);
    expect(fitBox(1000, 2000, 1)).toEqual([0, 500, 1000, 1000]);
    expect(moveBox([360, 0, 480, 600], 1000, 50, 1200, 600)).toEqual([720, 0, 480, 600]);
    expect(moveBox([360, 0, 480, 600], -1000, 0, 1200, 600)).toEqual([0, 0, 480, 600]);
  });
});
