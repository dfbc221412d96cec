/**
 * The keys our ESPHome YAMLs (config/esphome/) may use, per component, taken from ESPHome's component sources
 * (esphome/esphome, read for ESPHome 2025.12; each entry names its file). ESPHome's own validator is Python and not
 * installable here, so this is the check we can run: an unknown key, a missing required key or a value of the
 * wrong kind is a problem, with its path. Not every key ESPHome knows is listed, only the ones a file of ours may use.
 */

export type Kind =
  | 'string'
  | 'int'
  | 'bool'
  | 'duration'
  | 'pin'
  | 'lambda'
  | 'url'
  | 'id'
  | 'bytes'
  | { enum: readonly string[] }
  | { map: Schema }
  | { list: Schema }
  | 'automation'
  | 'any';

export interface Schema {
  required?: readonly string[];
  keys: Record<string, Kind>;
}

const SECRET_OR_STRING: Kind = 'string';
const PIN_MAP: Schema = { required: ['number'], keys: { number: 'pin', inverted: 'bool', mode: 'any' } };

/** Actions an automation of ours may call, with their keys (each component's register_action schema). */
export const ACTIONS: Record<string, Schema | 'id' | 'string' | 'lambda'> = {
  // esphome/automation.py (if, delay, wait_until, lambda) and esphome/core/base_automation.py
  if: { required: ['condition'], keys: { condition: 'any', then: 'automation', else: 'automation' } },
  delay: 'string',
  wait_until: { required: ['condition'], keys: { condition: 'any', timeout: 'duration' } },
  lambda: 'lambda',
  // esphome/core/base_automation.py: component.update takes an id
  'component.update': 'id',
  // esphome/components/logger/__init__.py
  'logger.log': 'string',
  // esphome/components/deep_sleep/__init__.py: DEEP_SLEEP_ENTER_SCHEMA
  'deep_sleep.enter': { keys: { id: 'id', sleep_duration: 'duration', until: 'string', time_id: 'id' } },
  // esphome/components/http_request/__init__.py: HTTP_REQUEST_ACTION_SCHEMA (+ method for get)
  'http_request.get': {
    required: ['url'],
    keys: {
      url: 'url',
      headers: 'any',
      capture_response: 'bool',
      max_response_buffer_size: 'bytes',
      on_response: 'automation',
      method: { enum: ['GET'] },
    },
  },
};

/** Top-level components, and display platforms, with their keys. */
export const COMPONENTS: Record<string, Schema> = {
  substitutions: { keys: {} },
  // esphome/core/config.py: CONFIG_SCHEMA
  esphome: {
    required: ['name'],
    keys: { name: 'string', friendly_name: 'string', on_boot: 'automation', comment: 'string' },
  },
  // esphome/components/esp32/__init__.py
  esp32: {
    required: ['board'],
    keys: {
      board: 'string',
      variant: 'string',
      framework: { map: { keys: { type: { enum: ['esp-idf', 'arduino'] }, version: 'string' } } },
    },
  },
  // esphome/components/psram/__init__.py
  psram: { keys: { mode: { enum: ['quad', 'octal'] }, speed: { enum: ['40MHz', '80MHz', '120MHz'] } } },
  // esphome/components/logger/__init__.py
  logger: { keys: { level: 'string', baud_rate: 'int' } },
  // esphome/components/api/__init__.py
  api: { keys: { encryption: { map: { keys: { key: SECRET_OR_STRING } } }, reboot_timeout: 'duration' } },
  // esphome/components/wifi/__init__.py
  wifi: {
    keys: {
      ssid: SECRET_OR_STRING,
      password: SECRET_OR_STRING,
      fast_connect: 'bool',
      power_save_mode: 'string',
      ap: 'any',
    },
  },
  // esphome/components/http_request/__init__.py: CONFIG_SCHEMA
  http_request: {
    keys: {
      id: 'id',
      useragent: 'string',
      timeout: 'duration',
      verify_ssl: 'bool',
      follow_redirects: 'bool',
      redirect_limit: 'int',
      buffer_size_rx: 'int',
      buffer_size_tx: 'int',
    },
  },
  // esphome/components/spi/__init__.py
  spi: { required: ['clk_pin'], keys: { id: 'id', clk_pin: 'pin', mosi_pin: 'pin', miso_pin: 'pin' } },
  // esphome/components/deep_sleep/__init__.py: CONFIG_SCHEMA
  deep_sleep: {
    keys: {
      id: 'id',
      run_duration: 'duration',
      sleep_duration: 'duration',
      wakeup_pin: 'pin',
      wakeup_pin_mode: 'string',
    },
  },
  // esphome/components/globals/__init__.py
  globals: {
    required: ['id', 'type'],
    keys: { id: 'id', type: 'string', restore_value: 'bool', initial_value: 'string', max_restore_data_length: 'int' },
  },
};

/** A `- platform: ota` entry (esphome/components/ota/__init__.py, esphome/components/esphome/ota/__init__.py). */
export const OTA: Schema = {
  required: ['platform'],
  keys: { platform: { enum: ['esphome', 'http_request', 'web_server'] }, password: SECRET_OR_STRING, id: 'id' },
};

/**
 * online_image: esphome/components/online_image/__init__.py (url, buffer_size, request_headers, update_interval,
 * on_download_finished, on_error) over esphome/components/runtime_image/__init__.py runtime_image_schema (id,
 * format, type, resize, byte_order, transparency, placeholder; format and type required).
 */
export const ONLINE_IMAGE: Schema = {
  required: ['id', 'url', 'format', 'type'],
  keys: {
    id: 'id',
    url: 'url',
    format: { enum: ['BMP', 'JPEG', 'JPG', 'PNG'] },
    type: { enum: ['BINARY', 'GRAYSCALE', 'RGB565', 'RGB'] },
    resize: 'string',
    byte_order: { enum: ['BIG_ENDIAN', 'LITTLE_ENDIAN'] },
    transparency: 'string',
    placeholder: 'id',
    buffer_size: 'int',
    request_headers: 'any',
    update_interval: 'duration',
    http_request_id: 'id',
    on_download_finished: 'automation',
    on_error: 'automation',
  },
};

const DISPLAY_COMMON = {
  platform: 'string',
  id: 'id',
  cs_pin: 'pin',
  dc_pin: 'pin',
  reset_pin: 'pin',
  busy_pin: 'pin',
  rotation: { enum: ['0', '90', '180', '270'] },
  update_interval: 'duration',
  lambda: 'lambda',
  reset_duration: 'duration',
} as const;

/** Display platforms: each one's keys and the models a file of ours names. */
export const DISPLAYS: Record<string, Schema & { models: readonly string[] }> = {
  // esphome/components/epaper_spi/display.py model_schema (full_update_every 1..255), models from
  // esphome/components/epaper_spi/models/uc8179.py (waveshare-7.5in-v2, seeed-reterminal-e1001 with preset pins)
  epaper_spi: {
    required: ['model'],
    keys: {
      ...DISPLAY_COMMON,
      model: 'string',
      full_update_every: 'int',
      dimensions: 'any',
      transform: 'any',
      data_rate: 'string',
      spi_id: 'id',
    },
    models: ['waveshare-7.5in-v2', 'seeed-reterminal-e1001'],
  },
  // esphome/components/waveshare_epaper/display.py (dc_pin and model required; model 2.90inv2)
  waveshare_epaper: {
    required: ['model', 'dc_pin'],
    keys: { ...DISPLAY_COMMON, model: 'string', full_update_every: 'int', spi_id: 'id' },
    models: ['2.90inv2', '7.50inv2'],
  },
};

export { PIN_MAP };
