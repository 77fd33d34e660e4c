import express, { type RequestHandler } from 'express';

/**
 * The JSON body of a route that takes a document. A small one is parsed here; a large one (a
 * document of thousands of lines is megabytes) stays bytes, and the task that checks the document
 * parses it on a worker process, so neither JSON.parse nor walking the values holds up the event
 * loop (DocumentWork.checkJson). Unsized (chunked) bodies count as large.
 */
export function documentBodyParser(limit: number, inlineBytes = 64 * 1024): RequestHandler {
  const json = express.json({ limit, strict: true });
  const raw = express.raw({ type: 'application/json', limit });
  return (req, res, next) => {
    const length = Number(req.headers['content-length'] ?? Number.NaN);
    (Number.isFinite(length) && length <= inlineBytes ? json : raw)(req, res, next);
  };
}
