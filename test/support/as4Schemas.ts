import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import libxmljs from 'libxmljs';
import { phase4Dir } from './peppolVectors.js';

/**
 * The SOAP 1.2, ebMS 3.0 header and ebBP signals schemas from the shared phase4 folder, bound
 * together by a driver schema written to a temporary folder. ebbp-signals imports XML Signature and
 * XLink without a location and the SOAP schema imports the XML namespace; the parts of those they
 * use (ds:Reference and its children as the W3C schema defines them, xlink:type/href, xml:lang)
 * are given here.
 */
const XML_NS_XSD = `<?xml version="1.0"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace">
  <xsd:attribute name="lang" type="xsd:language"/>
</xsd:schema>`;

const XMLDSIG_SUBSET_XSD = `<?xml version="1.0"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"
  targetNamespace="http://www.w3.org/2000/09/xmldsig#" elementFormDefault="qualified">
  <xsd:element name="Signature"><xsd:complexType><xsd:sequence><xsd:any namespace="##any" processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xsd:sequence><xsd:anyAttribute processContents="lax"/></xsd:complexType></xsd:element>
  <xsd:element name="Reference">
    <xsd:complexType>
      <xsd:sequence>
        <xsd:element ref="ds:Transforms" minOccurs="0"/>
        <xsd:element ref="ds:DigestMethod"/>
        <xsd:element ref="ds:DigestValue"/>
      </xsd:sequence>
      <xsd:attribute name="Id" type="xsd:ID" use="optional"/>
      <xsd:attribute name="URI" type="xsd:anyURI" use="optional"/>
      <xsd:attribute name="Type" type="xsd:anyURI" use="optional"/>
    </xsd:complexType>
  </xsd:element>
  <xsd:element name="Transforms"><xsd:complexType><xsd:sequence><xsd:element ref="ds:Transform" maxOccurs="unbounded"/></xsd:sequence></xsd:complexType></xsd:element>
  <xsd:element name="Transform">
    <xsd:complexType mixed="true">
      <xsd:choice minOccurs="0" maxOccurs="unbounded"><xsd:any namespace="##other" processContents="lax"/><xsd:element name="XPath" type="xsd:string"/></xsd:choice>
      <xsd:attribute name="Algorithm" type="xsd:anyURI" use="required"/>
    </xsd:complexType>
  </xsd:element>
  <xsd:element name="DigestMethod">
    <xsd:complexType mixed="true">
      <xsd:sequence><xsd:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xsd:sequence>
      <xsd:attribute name="Algorithm" type="xsd:anyURI" use="required"/>
    </xsd:complexType>
  </xsd:element>
  <xsd:element name="DigestValue" type="xsd:base64Binary"/>
</xsd:schema>`;

const XLINK_XSD = `<?xml version="1.0"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/1999/xlink">
  <xsd:attribute name="type" type="xsd:string"/>
  <xsd:attribute name="href" type="xsd:anyURI"/>
</xsd:schema>`;

const driver = (schemas: string) => `<?xml version="1.0"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:test:as4-driver">
  <xsd:import namespace="http://www.w3.org/XML/1998/namespace" schemaLocation="xml.xsd"/>
  <xsd:import namespace="http://www.w3.org/2000/09/xmldsig#" schemaLocation="xmldsig-subset.xsd"/>
  <xsd:import namespace="http://www.w3.org/1999/xlink" schemaLocation="xlink.xsd"/>
  <xsd:import namespace="http://www.w3.org/2003/05/soap-envelope" schemaLocation="${path.join(schemas, 'soap12.xsd')}"/>
  <xsd:import namespace="http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/" schemaLocation="${path.join(schemas, 'ebms-header-3_0-200704.xsd')}"/>
  <xsd:import namespace="http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0" schemaLocation="${path.join(schemas, 'ebbp-signals-2.0.4.xsd')}"/>
</xsd:schema>`;

let compiled: libxmljs.XMLDocument | null = null;

/** The compiled schema set (compiled once per test run). */
export function as4SchemaSet(): libxmljs.XMLDocument {
  if (compiled) return compiled;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'as4-xsd-'));
  fs.writeFileSync(path.join(dir, 'xml.xsd'), XML_NS_XSD);
  fs.writeFileSync(path.join(dir, 'xmldsig-subset.xsd'), XMLDSIG_SUBSET_XSD);
  fs.writeFileSync(path.join(dir, 'xlink.xsd'), XLINK_XSD);
  compiled = libxmljs.parseXml(driver(path.join(phase4Dir(), 'schemas')), {
    baseUrl: `${dir}${path.sep}`,
    nonet: true,
  });
  return compiled;
}

/** Schema errors of an envelope against SOAP 1.2 + ebMS 3.0 + ebBP signals; empty when valid. */
export function as4SchemaErrors(xml: string): string[] {
  const doc = libxmljs.parseXml(xml, { nonet: true });
  if (doc.validate(as4SchemaSet())) return [];
  return (doc.validationErrors as Array<{ message?: string }>).map((e) => String(e.message ?? e).trim());
}
