/** One answer of POST /recweather as the spec writes it, for the tests of what is kept of an answer. */
export const ANSWER = {
  outfit: 'A warm coat, a scarf and boots.',
  reasoning: 'Cold and wet.',
  weather: {
    temp: 4,
    feels_like: 1,
    temp_unit: '°C',
    humidity_pct: 80,
    wind_speed: 12,
    wind_speed_unit: 'km/h',
    wind_dir: 'NW',
    description: 'Rain',
    rain_chance_pct: 90,
    uv_index: 1,
    is_day: true,
    alerts: ['Wind'],
    source: 'sim',
  },
  model: 'sim-1',
  generated_at: '2026-11-28T07:00:00.000Z',
};
