/** The input cannot be validated at all: malformed XML, DTD/entities present, wrong root element, too large. */
export class XmlInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlInputError';
  }
}
