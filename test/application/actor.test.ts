import { expect } from 'chai';
import { actorOf, actorView, describeActor, type Actor } from '../../src/application/actor.js';

const KEY = '0d6c1f3e-2a4b-4c5d-8e9f-0a1b2c3d4e5f';

describe('Who caused an event (metadata.actor)', () => {
  it('Given each kind of actor, When described, Then it is said in words, never as key:<uuid>', () => {
    const cases: Array<[Actor, string]> = [
      [{ kind: 'api_key', keyId: KEY, keyName: 'erp', tenantId: 't' }, `API key 'erp' (${KEY})`],
      [{ kind: 'api_key', keyId: KEY, keyName: null, tenantId: 't' }, `API key ${KEY}`],
      [
        { kind: 'organization_admin', keyId: KEY, keyName: 'main', organizationId: 'o' },
        `organization admin key 'main' (${KEY})`,
      ],
      [{ kind: 'operator' }, 'the operator'],
      [{ kind: 'access_point', seatId: 'POP000123' }, 'access point POP000123'],
      [{ kind: 'access_point', seatId: null }, 'an access point (not recorded which)'],
      [{ kind: 'system', job: 'delivery' }, 'delivery job'],
      [{ kind: 'system', job: 'webhooks' }, 'webhook dispatcher'],
      [{ kind: 'unknown' }, 'unknown'],
    ];
    for (const [actor, words] of cases) expect(describeActor(actor)).to.equal(words);
  });

  it('Given events recorded before actors were tagged, When read, Then what their string says is derived, else unknown', () => {
    expect(actorOf({ actor: `key:${KEY}`, tenantId: 't1' })).to.deep.equal({
      kind: 'api_key',
      keyId: KEY,
      keyName: null,
      tenantId: 't1',
    });
    expect(actorOf({ actor: `key:${KEY}`, organizationId: 'o1' })).to.deep.equal({
      kind: 'organization_admin',
      keyId: KEY,
      keyName: null,
      organizationId: 'o1',
    });
    expect(actorOf({ actor: 'operator' })).to.deep.equal({ kind: 'operator' });
    expect(actorOf({ actor: 'response-router' })).to.deep.equal({ kind: 'system', job: 'response-router' });
    expect(actorOf({ actor: 'as4-inbox' })).to.deep.equal({ kind: 'access_point', seatId: null });
    expect(actorOf({ actor: 'anonymous' })).to.deep.equal({ kind: 'unknown' });
    expect(actorOf({})).to.deep.equal({ kind: 'unknown' });
  });

  it('Given a recorded actor object, When read, Then only the union’s shapes are taken', () => {
    const recorded: Actor = { kind: 'api_key', keyId: KEY, keyName: 'erp', tenantId: 't' };
    expect(actorOf({ actor: recorded })).to.deep.equal(recorded);
    expect(actorOf({ actor: { kind: 'system', job: 'mining' } })).to.deep.equal({ kind: 'unknown' });
    expect(actorOf({ actor: { kind: 'api_key' } })).to.deep.equal({ kind: 'unknown' });
    expect(actorOf({ actor: { kind: 'wizard' } })).to.deep.equal({ kind: 'unknown' });
  });

  it('Given an actor, When answered by the API, Then its fields are snake_case', () => {
    expect(actorView({ kind: 'api_key', keyId: KEY, keyName: 'erp', tenantId: 't' })).to.deep.equal({
      kind: 'api_key',
      key_id: KEY,
      key_name: 'erp',
      tenant_id: 't',
    });
    expect(actorView({ kind: 'access_point', seatId: 'POP000123' })).to.deep.equal({
      kind: 'access_point',
      seat_id: 'POP000123',
    });
  });
});
