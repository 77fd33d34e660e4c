import * as t from 'io-ts';
import type { HistoryCheckpoints } from '../../../application/history/historyCheckpoints.js';
import type { HistoryVerification } from '../../../application/history/historyVerification.js';
import type { HistoryChainer } from '../../../application/history/historyChainer.js';
import { checkpointFromJson, checkpointJson } from '../../../application/history/checkpointJson.js';
import type { SignedCheckpoint } from '../../../application/ports/historyChain.js';
import { CheckpointAnswer, CheckpointsAnswer, HistoryVerificationAnswer } from '../../codecs/historyAnswers.js';
import { decode, PAGE_FIELDS } from '../../codecs.js';
import { describedAs } from '../../jsonSchema.js';
import type { RouteRegistry } from '../../routeRegistry.js';

/** A signed checkpoint as the list answers it (and the checkpoint file holds it), checked field by field. */
const Checkpoint = describedAs(
  new t.Type<SignedCheckpoint, unknown, unknown>(
    'Checkpoint',
    (u): u is SignedCheckpoint => typeof u === 'object' && u !== null,
    (u, c) => {
      const checkpoint = checkpointFromJson(u);
      return typeof checkpoint === 'string' ? t.failure(u, c, checkpoint) : t.success(checkpoint);
    },
    (c) => checkpointJson(c),
  ),
  {
    type: 'object',
    description:
      'A checkpoint as GET /api/operator/history/checkpoints lists it: position, events, head_hash, created_at, algorithm, signature, key_id, public_key, certificate',
  },
);

const VerifyBody = t.partial({ checkpoints: t.array(Checkpoint), blobs: t.boolean });
const CheckpointsQuery = t.partial(PAGE_FIELDS);

export interface HistoryRouteDependencies {
  chainer: HistoryChainer;
  checkpoints: HistoryCheckpoints;
  verification: HistoryVerification;
  signingKeyId: () => string;
}

/** The tamper-evident history, for the operator: checkpoints (listed, written now) and verification. */
export function historyRoutes(routes: RouteRegistry, history: HistoryRouteDependencies): void {
  routes.add({
    method: 'get',
    path: '/api/operator/history/checkpoints',
    summary:
      "The signed checkpoints of the log's hash chain, newest first, a page at a time (page, page_size), with where the chain stands (chain: chained_through, chained_events, log_head) and the key checkpoints are signed with (signing_key_id). Keep a copy outside the database (or set HISTORY_CHECKPOINT_FILE): it shows later that the log was not rewritten",
    tag: 'operator',
    auth: 'operator',
    query: CheckpointsQuery,
    responses: { 200: 'A page: items, total, page, page_size, pages, has_next_page, chain, signing_key_id' },
    answer: CheckpointsAnswer,
    handler: async (req, res, answer) => {
      const q = decode(CheckpointsQuery, req.query, 'query');
      const page = q.page ?? 1;
      const pageSize = q.page_size ?? 20;
      const [list, chain] = await Promise.all([history.checkpoints.list(page, pageSize), history.chainer.status()]);
      const pages = Math.ceil(list.total / pageSize);
      answer({
        items: list.items.map(checkpointJson),
        total: list.total,
        page,
        page_size: pageSize,
        pages,
        has_next_page: page < pages,
        chain,
        signing_key_id: history.signingKeyId(),
      });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/history/checkpoints',
    summary:
      'Write a signed checkpoint of everything appended so far (once chained, which takes a moment): 201 with it, or 200 with the last one when nothing was appended since',
    tag: 'operator',
    auth: 'operator',
    responses: {
      200: 'Nothing new since the last checkpoint: that one',
      201: 'The new checkpoint',
      409: 'The log is empty',
    },
    answer: CheckpointAnswer,
    handler: async (_req, _res, answer) => {
      const before = (await history.checkpoints.list(1, 1)).items[0];
      const checkpoint = await history.checkpoints.checkpointNow();
      const isNew = !before || before.position !== checkpoint.position;
      answer(checkpointJson(checkpoint), isNew ? 201 : 200);
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/history/verify',
    summary:
      'Walk the whole log against its hash chain and its signed checkpoints, and (unless blobs is false) read every blob an event names. Body (optional): checkpoints (from a copy kept outside the database: the latest one vouches for everything before it), blobs. Answer: ok, first_problem ({kind, position, to_position, count, event_id, detail}: the first position where anything differs, and how: changed, missing, inserted, reordered, renumbered, link_changed, link_missing, blob_changed, blob_missing, checkpoint_mismatch, checkpoint_signature, checkpoint_missing, checkpoint_changed), problems, counts, notes',
    tag: 'operator',
    auth: 'operator',
    body: VerifyBody,
    bodyOptional: true,
    responses: { 200: 'The report (ok false when anything differs)', 409: 'A verification is already running' },
    answer: HistoryVerificationAnswer,
    handler: async (req, _res, answer) => {
      const body = decode(VerifyBody, req.body ?? {}, 'body');
      answer(await history.verification.verify({ external: body.checkpoints ?? [], blobs: body.blobs }));
    },
  });
}
