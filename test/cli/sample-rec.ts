/** A saved Recommendation, as `render --input` reads it: a mild, sunny day. */
export const REC = {
  outfit: 'A light jacket over a T-shirt, jeans and trainers. Take sunglasses.',
  reasoning: 'Mild and sunny with a light breeze.',
  weather: {
    temp: 18.5,
    feels_like: 17.9,
    temp_unit: '°C',
    humidity_pct: 52,
    wind_speed: 11,
    wind_speed_unit: 'km/h',
    wind_dir: 'SW',
    description: 'Sunny',
    rain_chance_pct: 5,
    uv_index: 5,
    is_day: true,
    alerts: [],
    source: 'test',
  },
  model: 'outfit-test',
  generated_at: '2026-05-02T08:00:00.000Z',
};
