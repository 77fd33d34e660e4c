import type { Request, Response } from 'express';
import multer from 'multer';
import { HttpError } from './errors.js';

export interface UploadedFile {
  buffer: Buffer;
  fileName: string | null;
  mimeType: string | null;
}

/**
 * The uploaded file of a request: multipart/form-data field `file`, or the raw body of an
 * XML request (kept as bytes by the app's raw parser). Size-limited; anything else is a clear 4xx.
 */
export async function uploadedFile(
  req: Request,
  res: Response,
  limitBytes: number,
  rawTypes: RegExp,
): Promise<UploadedFile> {
  const type = req.headers['content-type'] ?? '';
  // Read already (an Idempotency-Key's fingerprint needs the body before the handler runs).
  const read = (req as Request & { uploaded?: UploadedFile }).uploaded;
  if (read) return read;
  if (/^multipart\/form-data/i.test(type)) {
    const upload = multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: limitBytes, files: 1, fields: 20 },
    }).single('file');
    await new Promise<void>((resolve, reject) =>
      upload(req, res, (error: unknown) => {
        if (!error) return resolve();
        const code = (error as { code?: string }).code;
        if (code === 'LIMIT_FILE_SIZE')
          return reject(new HttpError(413, `File larger than the limit of ${limitBytes} bytes`));
        reject(new HttpError(400, `Invalid multipart upload: ${(error as Error).message}`));
      }),
    );
    const file = (req as Request & { file?: Express.Multer.File }).file;
    if (!file) throw new HttpError(422, [{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }]);
    const uploaded = { buffer: file.buffer, fileName: file.originalname || null, mimeType: file.mimetype || null };
    (req as Request & { uploaded?: UploadedFile }).uploaded = uploaded;
    return uploaded;
  }
  if (rawTypes.test(type) && Buffer.isBuffer(req.body)) {
    const buffer = req.body;
    if (buffer.length === 0) throw new HttpError(422, [{ loc: ['body'], msg: 'Empty body', type: 'missing' }]);
    return { buffer, fileName: null, mimeType: type.split(';')[0]!.trim() };
  }
  throw new HttpError(
    415,
    'Send the file as multipart/form-data field "file", or as the raw body with Content-Type application/xml',
  );
}
