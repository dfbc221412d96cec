/** A fixed header: the type byte and the remaining length as MQTT's variable byte integer. */
export function mqttHeader(type: number, length: number): Buffer {
  const bytes = [type];
  let n = length;
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}

/** A whole packet: the fixed header and `length` bytes of `fill`. */
export function mqttPacket(type: number, length: number, fill = 7): Buffer {
  return Buffer.concat([mqttHeader(type, length), Buffer.alloc(length, fill)]);
}
