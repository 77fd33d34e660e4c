import type { Request, RequestHandler } from 'express';
import {
  describeBadText,
  jsonProblems,
  NOT_XML_TEXT,
  problem,
  type HygieneLimits,
  type InputProblem,
} from '../domain/inputText.js';
import { HttpError } from './errors.js';

export type { HygieneLimits } from '../domain/inputText.js';

function textProblems(values: Record<string, unknown>, root: 'path' | 'query', maxLength: number): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const [name, raw] of Object.entries(values)) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (NOT_XML_TEXT.test(name))
        problems.push(problem([root, name], `Parameter name: ${describeBadText(name)}`, 'invalid_character'));
      else if (typeof value !== 'string') continue;
      else if (value.length > maxLength)
        problems.push(
          problem(
            [root, name],
            `Value should have at most ${maxLength} characters (limit MAX_STRING_LENGTH)`,
            'string_too_long',
          ),
        );
      else if (NOT_XML_TEXT.test(value))
        problems.push(problem([root, name], describeBadText(value), 'invalid_character'));
    }
  }
  return problems;
}

/** Refuses, with a 422 naming each field, a request whose path, query or JSON body carries what no field may. */
export function inputHygiene(limits: HygieneLimits): RequestHandler {
  return (req: Request, _res, next) => {
    const problems = [
      ...textProblems(req.params as Record<string, unknown>, 'path', limits.maxStringLength),
      ...textProblems(req.query as Record<string, unknown>, 'query', limits.maxStringLength),
      // A large document body arrives unparsed (documentBodyParser): the task that parses it checks it.
      ...(req.body !== undefined && typeof req.body === 'object' && !Buffer.isBuffer(req.body)
        ? jsonProblems(req.body, limits)
        : []),
    ];
    next(problems.length > 0 ? new HttpError(422, problems) : undefined);
  };
}
