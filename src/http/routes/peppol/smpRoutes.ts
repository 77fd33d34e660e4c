import type { Request } from 'express';
import type { SmpPublication } from '../../../application/peppol/smpPublication.js';
import { isParticipantUri } from '../../../domain/peppol/participantId.js';
import { HttpError } from '../../errors.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { requestBase } from './requestBase.js';

const XML = 'text/xml; charset=utf-8';
/** Only paths whose participant segment starts with the identifier scheme are SMP paths; /healthz, /api, … never are. */
const namesParticipant = (req: Request) => isParticipantUri(String(req.params.participant ?? ''));

/**
 * This instance's Peppol SMP (REST binding of SMP 1.x, busdox namespaces): public, no
 * authentication, for live (not simulated) participants of its registry. The participant and
 * document type segments are URL-encoded ids: `iso6523-actorid-upis::0208:…`, `busdox-docid-qns::…`.
 */
export function smpRoutes(routes: RouteRegistry, smp: SmpPublication): void {
  const publishedOrNotFound = async (req: Request) => {
    const published = await smp.published(String(req.params.participant));
    if (!published) throw new HttpError(404, 'Unknown participant');
    return published;
  };

  routes.add({
    method: 'get',
    path: '/businesscard/:participant',
    summary: 'Peppol SMP: the business card of a participant (Peppol Directory business card v3 XML)',
    tag: 'smp',
    auth: 'none',
    match: namesParticipant,
    responses: { 200: 'BusinessCard XML', 404: 'Unknown participant' },
    media: { 'text/xml': 'The Peppol Directory business card (v3)' },
    handler: async (req, res) => {
      res.type(XML).send(smp.businessCardXml(await publishedOrNotFound(req)));
    },
  });
  routes.add({
    method: 'get',
    path: '/:participant',
    summary:
      'Peppol SMP: the ServiceGroup of a participant (`iso6523-actorid-upis::<scheme>:<id>`), referencing its service metadata',
    tag: 'smp',
    auth: 'none',
    match: namesParticipant,
    responses: { 200: 'ServiceGroup XML', 404: 'Unknown participant' },
    media: { 'text/xml': 'The SMP 1.x ServiceGroup' },
    handler: async (req, res) => {
      const published = await publishedOrNotFound(req);
      res.type(XML).send(smp.serviceGroupXml(published, requestBase(req)));
    },
  });
  routes.add({
    method: 'get',
    path: '/:participant/services/:documentType',
    summary:
      'Peppol SMP: the SignedServiceMetadata of a participant for a document type (`busdox-docid-qns::…`): process, AS4 endpoint, certificate',
    tag: 'smp',
    auth: 'none',
    match: namesParticipant,
    responses: { 200: 'SignedServiceMetadata XML', 404: 'Unknown participant or document type' },
    media: { 'text/xml': 'The SMP 1.x SignedServiceMetadata' },
    handler: async (req, res) => {
      const published = await publishedOrNotFound(req);
      const documentType = smp.documentType(published, String(req.params.documentType));
      if (!documentType) throw new HttpError(404, 'The participant does not receive this document type');
      res.type(XML).send(smp.serviceMetadataXml(published.id, documentType, requestBase(req)));
    },
  });
}
