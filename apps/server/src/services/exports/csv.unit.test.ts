/** The CSV writer: RFC 4180 quoting, formula-injection guard, BOM, Chinese text intact. */
import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [12, '12'],
    ['12.50', '12.50'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['+1+2', "'+1+2"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTAB', "'\tTAB"],
    ['\r=x', '"\'\r=x"'],
    ['标准套餐 100M', '标准套餐 100M'],
    ['中文,逗号', '"中文,逗号"'],
  ] as const)('%j → %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('leaves numbers alone: a negative amount written as a number is not a formula', () => {
    expect(csvCell(-5)).toBe('-5');
  });
});

describe('toCsv', () => {
  it('writes a BOM, a header and CRLF rows', () => {
    const csv = toCsv(
      ['id', 'name'],
      [
        ['1', '套餐'],
        ['2', 'a"b'],
      ],
    );
    expect(csv).toBe(`${CSV_BOM}id,name\r\n1,套餐\r\n2,"a""b"\r\n`);
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('writes only the header when there are no rows', () => {
    expect(toCsv(['id'], [])).toBe(`${CSV_BOM}id\r\n`);
  });
});
