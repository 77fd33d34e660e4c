import { readMls, type ReceivedMls } from '../../domain/peppol/mls/messageLevelStatus.js';
import { validateMls } from '../../domain/validation/rules/mls/mlsRules.js';
import { parseUntrustedXml } from './xmlParser.js';

/**
 * A received MLS document (text that came through the untrusted-XML gate as part of its payload):
 * what it says and the MLS rules it breaks, as `rule: message`. One parse; a text that cannot be
 * parsed says nothing and breaks every rule that needs a value, which the reason names.
 */
export function readMlsText(xml: string): { says: ReceivedMls; problems: string[] } {
  try {
    const { root } = parseUntrustedXml(xml);
    return { says: readMls(root), problems: validateMls(root).map((i) => `${i.rule_id}: ${i.message}`) };
  } catch (error) {
    const nothing: ReceivedMls = {
      id: null,
      code: null,
      description: null,
      referenceId: null,
      sender: null,
      receiver: null,
      issues: [],
    };
    return { says: nothing, problems: [`the MLS cannot be read: ${(error as Error).message}`] };
  }
}
