/**
 * The bare receiver of `bench:as4-floor`: no framework, no XML, no AS4. Per request it does only
 * what every Peppol receiver must do at least, one step more for each MODE:
 *   http   read the body and answer 3 KB (a receipt's size)
 *   keys   + the two RSA-2048 private-key operations of every received message: the RSA-OAEP unwrap
 *            of the payload's key and the receipt's RSA-SHA256 signature
 *   store  + one durable INSERT of the message (PostgreSQL's default synchronous commit)
 *   rules  + the received invoice read and checked by the business rules (what the service needs
 *            for its inbox and for the MLS RE a sender may ask for), as the service does it inline
 * Env: MODE, PORT, DATABASE_URL, UBL_FILE (the invoice, for `rules`). Prints "ready" when listening.
 */
import { constants, createSign, generateKeyPairSync, privateDecrypt, publicEncrypt, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { readReceivedDocument } from '../src/infrastructure/workers/documentTasks.js';

const FLOOR_MODES = ['http', 'keys', 'store', 'rules'];
const level = FLOOR_MODES.indexOf(process.env.MODE ?? '');
if (level < 0) throw new Error(`MODE must be one of ${FLOOR_MODES.join(', ')}`);
const oaep = { oaepHash: 'sha1', padding: constants.RSA_PKCS1_OAEP_PADDING };
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
// A payload key wrapped for us, as a sender's EncryptedKey carries it.
const wrappedKey = publicEncrypt({ key: publicKey, ...oaep }, randomBytes(16));
const ubl = level >= FLOOR_MODES.indexOf('rules') ? readFileSync(process.env.UBL_FILE!, 'utf8') : '';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query('CREATE TABLE IF NOT EXISTS floor_messages (id bigserial PRIMARY KEY, body bytea, receipt text)');

const answer = async (body: Buffer): Promise<string> => {
  let receipt = 'r'.repeat(3000);
  if (level >= FLOOR_MODES.indexOf('keys')) {
    privateDecrypt({ key: privateKey, ...oaep }, wrappedKey);
    // A receipt's canonical SignedInfo is about 1 KB.
    receipt = createSign('RSA-SHA256').update(body.subarray(0, 1024)).sign(privateKey, 'base64') + receipt;
  }
  if (level >= FLOOR_MODES.indexOf('rules') && !readReceivedDocument(ubl, undefined).document)
    throw new Error('the invoice fails its business rules');
  if (level >= FLOOR_MODES.indexOf('store'))
    await pool.query('INSERT INTO floor_messages (body, receipt) VALUES ($1, $2)', [body, receipt]);
  return receipt;
};

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      answer(Buffer.concat(chunks)).then(
        (receipt) => {
          res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
          res.end(receipt);
        },
        (error: Error) => {
          res.writeHead(500);
          res.end(error.message);
        },
      );
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
