/**
 * Why the embedded broker refused a client or a message. Each has a stable code (docs/reference/mqtt.md, "The embedded
 * broker"); the message names the client and the topic, never a payload or a password.
 */

import type { ErrorCode } from '../../shared/codes.js';

export const BROKER_REFUSAL_CODES = [
  'E_MQTT_TOO_LARGE',
  'E_MQTT_MALFORMED',
  'E_MQTT_LOGIN',
  'E_MQTT_NOT_ALLOWED',
  'E_MQTT_RETAINED_FULL',
  'E_MQTT_SUBSCRIPTIONS_FULL',
  'E_MQTT_FILTER_TOO_LONG',
] as const satisfies readonly ErrorCode[];
export type BrokerRefusalCode = (typeof BROKER_REFUSAL_CODES)[number];

/** CONNACK return codes of MQTT 3.1.1 that a refused login is answered with. */
export const CONNACK_IDENTIFIER_REJECTED = 2;
export const CONNACK_BAD_USERNAME_OR_PASSWORD = 4;

export class BrokerRefusal extends Error {
  /** Read by aedes when a login is refused: the CONNACK return code sent to the client. */
  readonly returnCode?: number;

  constructor(
    readonly code: BrokerRefusalCode,
    message: string,
    returnCode?: number,
  ) {
    super(message);
    this.name = 'BrokerRefusal';
    if (returnCode !== undefined) this.returnCode = returnCode;
  }
}
