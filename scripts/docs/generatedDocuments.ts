import path from 'node:path';
import * as prettier from 'prettier';
import { configurationReference, CONFIGURATION_REFERENCE } from './configurationReference.js';
import { eventsCatalogue, EVENTS_CATALOGUE } from './eventsCatalogue.js';

/** Each generated document with its text, formatted as `npm run lint` wants it. */
export async function generatedDocuments(root: string): Promise<Array<{ file: string; text: string }>> {
  const documents = [
    { file: CONFIGURATION_REFERENCE, text: configurationReference() },
    { file: EVENTS_CATALOGUE, text: eventsCatalogue(root) },
  ];
  return Promise.all(
    documents.map(async ({ file, text }) => {
      const options = (await prettier.resolveConfig(path.join(root, file))) ?? {};
      return { file, text: await prettier.format(text, { ...options, parser: 'markdown' }) };
    }),
  );
}
