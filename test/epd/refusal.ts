import { expect } from 'vitest';
import {
  PanelProtocolError,
  type IntakeReason,
  type ModelOp,
  type ProtocolModel,
} from '../../display/controllers/protocol-model.js';

/**
 * Feeds a controller model a hand-made stream: 'accepted', or the reason it refused, checked to be E_PANEL_PROTOCOL
 * at the stream's last op (each case ends with the op that breaks the rule).
 */
export function refusal<R extends string>(
  model: ProtocolModel<R>,
  ops: readonly ModelOp[],
): R | IntakeReason | 'accepted' {
  try {
    model.applyAll(ops);
    return 'accepted';
  } catch (err) {
    expect(err).toBeInstanceOf(PanelProtocolError);
    const refused = err as PanelProtocolError<R | IntakeReason>;
    expect(refused.code).toBe('E_PANEL_PROTOCOL');
    expect(refused.opIndex).toBe(ops.length - 1);
    return refused.reason;
  }
}
