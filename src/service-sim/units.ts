/** Unit conversions of the simulated service: values are rounded to one decimal, as served. */

export const round1 = (x: number): number => Math.round(x * 10) / 10;

export const cToF = (c: number): number => round1((c * 9) / 5 + 32);

export const kmhToMph = (kmh: number): number => round1(kmh / 1.609344);
