import { limitExceeded as exceeded, type XmlLimits } from '../../domain/validation/xml/limits.js';

/** Refuses a document whose UTF-8 size is above maxBytes. */
export function checkXmlSize(bytes: number, limits: XmlLimits): void {
  if (bytes > limits.maxBytes) throw exceeded('maxBytes', bytes, limits.maxBytes);
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

/** Index just after the next `token` from `from`, or -1. */
function after(xml: string, token: string, from: number): number {
  const i = xml.indexOf(token, from);
  return i < 0 ? -1 : i + token.length;
}

/**
 * Checks the element count, depth, attributes and text lengths of `xml` in one pass, visiting every
 * character at most once. It follows only the markup boundaries of well-formed, DTD-free XML; where
 * the text does not fit them the scan stops and leaves the error to libxml2, which stops there at the
 * latest, having met only what was checked (and says where, with line and column).
 */
export function checkXmlLimits(xml: string, limits: XmlLimits): void {
  const { maxElements, maxDepth, maxAttributesPerElement, maxTextLength } = limits;
  const len = xml.length;
  let elements = 0;
  let depth = 0;
  let pos = 0;
  while (pos < len) {
    const lt = xml.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd - pos > maxTextLength) throw exceeded('maxTextLength', textEnd - pos, maxTextLength);
    if (lt < 0) break;
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 63 /* ? */) {
      pos = after(xml, '?>', lt + 2);
      if (pos < 0) return;
    } else if (c1 === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        pos = after(xml, '-->', lt + 4);
        if (pos < 0) return;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        pos = after(xml, ']]>', lt + 9);
        if (pos < 0) return;
        if (pos - 3 - (lt + 9) > maxTextLength) throw exceeded('maxTextLength', pos - 3 - (lt + 9), maxTextLength);
      } else {
        return;
      }
    } else if (c1 === 47 /* / */) {
      depth--;
      pos = after(xml, '>', lt + 2);
      if (pos < 0) return;
    } else {
      if (++elements > maxElements) throw exceeded('maxElements', elements, maxElements);
      pos = lt + 1;
      while (pos < len && !isSpace(xml.charCodeAt(pos)) && xml[pos] !== '>' && xml[pos] !== '/') pos++;
      let attributes = 0;
      for (;;) {
        while (pos < len && isSpace(xml.charCodeAt(pos))) pos++;
        if (pos >= len) return;
        if (xml[pos] === '>') {
          pos++;
          if (++depth > maxDepth) throw exceeded('maxDepth', depth, maxDepth);
          break;
        }
        if (xml[pos] === '/') {
          if (xml[pos + 1] !== '>') return;
          pos += 2;
          // An empty element is one level deeper too, though it closes at once.
          if (depth + 1 > maxDepth) throw exceeded('maxDepth', depth + 1, maxDepth);
          break;
        }
        const nameStart = pos;
        while (pos < len && !isSpace(xml.charCodeAt(pos)) && xml[pos] !== '=' && xml[pos] !== '>' && xml[pos] !== '/')
          pos++;
        if (pos === nameStart) return;
        while (pos < len && isSpace(xml.charCodeAt(pos))) pos++;
        if (xml[pos] !== '=') return;
        pos++;
        while (pos < len && isSpace(xml.charCodeAt(pos))) pos++;
        const quote = xml[pos];
        if (quote !== '"' && quote !== "'") return;
        const close = xml.indexOf(quote, pos + 1);
        if (close < 0) return;
        if (close - pos - 1 > maxTextLength) throw exceeded('maxTextLength', close - pos - 1, maxTextLength);
        if (++attributes > maxAttributesPerElement)
          throw exceeded('maxAttributesPerElement', attributes, maxAttributesPerElement);
        pos = close + 1;
      }
    }
  }
}
