import { zerosDeflated, zerosDeflatedTwice } from './pdfBombs.js';

export interface PdfBomb {
  pdf: Buffer;
}

/**
 * A small, well-formed PDF whose streams inflate to about 13 GiB: ten pages whose content streams
 * are FlateDecode twice (1 GiB of zeros each, ~2 KB on disk), two pages with a plain FlateDecode
 * content stream of 1 GiB (~1 MB each, for readers that do not chain filters), and an embedded
 * `factur-x.xml` (the path the service reads first, looking for an embedded invoice) of 1 GiB,
 * also FlateDecode twice. Every stream is a distinct object, so a reader cannot decode one and reuse it.
 */
export async function flateBombPdf(): Promise<PdfBomb> {
  const GiB = 1 << 30;
  const once = zerosDeflated(GiB);
  const twice = zerosDeflatedTwice(GiB);

  const objects: Buffer[] = [];
  const add = (body: Buffer | string): number => {
    objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
    return objects.length;
  };
  const stream = (dict: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);

  // Object numbers are fixed up front: 1 catalog, 2 pages, then the rest in order.
  add('');
  add('');
  const pageIds: number[] = [];
  const page = (contents: number) =>
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /Contents ${contents} 0 R >>`);
  for (let i = 0; i < 10; i++) pageIds.push(page(add(stream('/Filter [/FlateDecode /FlateDecode]', twice))));
  for (let i = 0; i < 2; i++) pageIds.push(page(add(stream('/Filter /FlateDecode', once))));
  const embedded = add(stream('/Type /EmbeddedFile /Subtype /text#2Fxml /Filter [/FlateDecode /FlateDecode]', twice));
  const filespec = add(
    `<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Data /EF << /F ${embedded} 0 R /UF ${embedded} 0 R >> >>`,
  );
  objects[0] = Buffer.from(
    `<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(factur-x.xml) ${filespec} 0 R] >> >> /AF [${filespec} 0 R] >>`,
    'latin1',
  );
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    'latin1',
  );

  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    offsets.push(offset);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
      'latin1',
    ),
  );
  return { pdf: Buffer.concat(parts) };
}
