import { documentTasks, useDocumentDecoder, type TaskName } from '../infrastructure/workers/documentTasks.js';
import { serializeError } from '../infrastructure/workers/taskErrors.js';
import type { TaskReply } from '../infrastructure/workers/taskPool.js';
import { SETTINGS } from '../infrastructure/settings/catalogue.js';
import { useXmlLimits } from '../domain/validation/index.js';
import { decodeDocumentInput } from '../http/codecs/documentCodec.js';

/*
 * A task pool's worker process, and its composition root: the tasks decode large request bodies
 * off the service's event loop with the HTTP edge's codec, which this entry gives them (the
 * infrastructure may not import the HTTP edge). Child processes rather than worker threads: libxmljs (the XML
 * parser and XSD validator) is not safe to load in more than one thread of a process, and a
 * process can be killed outright, taking every byte it allocated with it. Each request is
 * answered with a value or an error as data, so the error's class and fields survive the trip.
 */
const limits = SETTINGS.INVOICING_WORKER_XML_LIMITS.read(process.env);
if (limits) useXmlLimits(JSON.parse(limits));
useDocumentDecoder(decodeDocumentInput);

process.on('message', (message: { id: number; name: TaskName; args: unknown[] }) => {
  void (async () => {
    // The task's time budget runs from here: not from the moment it was sent, which includes
    // starting this process and copying the input.
    process.send!({ id: message.id, started: true });
    let reply: TaskReply;
    try {
      const task = documentTasks[message.name] as (...a: unknown[]) => unknown;
      reply = { id: message.id, ok: true, value: await task(...message.args) };
    } catch (error) {
      reply = { id: message.id, ok: false, error: serializeError(error) };
    }
    process.send!(reply);
  })();
});
// The pool going away (its IPC channel closing) ends this process too.
process.on('disconnect', () => process.exit(0));
