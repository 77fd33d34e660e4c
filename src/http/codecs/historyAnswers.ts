import * as t from 'io-ts';
import { nullable, oneOf } from './answerCodecs.js';

/** A signed checkpoint of the log's hash chain (docs/internals/proving-history.md). */
export const CheckpointAnswer = t.type({
  position: t.string,
  events: t.number,
  head_hash: t.string,
  created_at: t.string,
  algorithm: t.string,
  signature: t.string,
  key_id: t.string,
  public_key: t.string,
  certificate: nullable(t.string),
});

/** `GET /api/operator/history/checkpoints`. */
export const CheckpointsAnswer = t.type({
  items: t.array(CheckpointAnswer),
  total: t.number,
  page: t.number,
  page_size: t.number,
  pages: t.number,
  has_next_page: t.boolean,
  chain: t.type({ chained_through: nullable(t.string), chained_events: t.number, log_head: nullable(t.string) }),
  signing_key_id: t.string,
});

const HistoryProblem = t.intersection([
  t.type({
    kind: oneOf([
      'changed',
      'missing',
      'inserted',
      'reordered',
      'renumbered',
      'link_changed',
      'link_missing',
      'blob_changed',
      'blob_missing',
      'checkpoint_mismatch',
      'checkpoint_signature',
      'checkpoint_missing',
      'checkpoint_changed',
    ]),
    position: t.string,
    count: t.number,
    event_id: nullable(t.string),
    detail: t.string,
  }),
  t.partial({ to_position: t.string }),
]);

/** `POST /api/operator/history/verify`. */
export const HistoryVerificationAnswer = t.type({
  ok: t.boolean,
  first_problem: nullable(HistoryProblem),
  problems: t.array(HistoryProblem),
  problems_total: t.number,
  events_checked: t.number,
  links_checked: t.number,
  chained_through: nullable(t.string),
  log_head: nullable(t.string),
  unchained_events: t.number,
  checkpoints_checked: t.number,
  external_checkpoints_checked: t.number,
  blobs_checked: t.number,
  notes: t.array(t.string),
  duration_ms: t.number,
});
