import { describe, expect, it } from 'vitest';
import { formatCell } from '../../src/report/html.js';

describe('formatCell', () => {
  it('shows identifiers exactly (143002 stays 143002, 135066 and 135072 stay apart)', () => {
    expect(formatCell('output_pk', 143002)).toBe('143002');
    expect(formatCell('subset_pk', 135066)).not.toBe(formatCell('subset_pk', 135072));
  });
  it('rounds values to 6 significant digits and keeps small ones readable', () => {
    expect(formatCell('reported', 1234.56789)).toBe('1234.57');
    expect(formatCell('ratio', 0.0000073503)).toBe('0.0000073503');
    expect(formatCell('ratio', 1000.0000001)).toBe('1000');
  });
  it('leaves missing values empty and non-finite values named', () => {
    expect(formatCell('reported', null)).toBe('');
    expect(formatCell('ratio', Number.NaN)).toBe('NaN');
  });
});
