/** The text of `outfit-display --help`: every command and its flags, and the exit codes. */
export const USAGE = `outfit-display: what to wear today, on an e-ink display

Usage:
  outfit-display run --config F                        the daemon
  outfit-display once --config F [--display ID]        one cycle: fetch, render, publish
  outfit-display plan --config F                       calls and credits per day and month against the budget
  outfit-display render --config F --input REC.json [--display ID] [--now ISO] [--status KIND] --out FILE
                                                       render a saved Recommendation offline (.png, .bmp, .bin;
                                                       .json: what the frame shows, with garments and sizes), or
                                                       a household file {"people": [{id, name, offset_c,
                                                       recommendation}]}, everyone on one frame;
                                                       --now: as the wall shows it at that time (an old answer
                                                       drawn stale); --status: in that state, one of ok, stale,
                                                       service_error, unreachable, key_rejected, credits_out,
                                                       budget_exhausted
  outfit-display check-config --config F               validate; print every problem with its key path
  outfit-display pair --config F [--display ID | --mac MAC] [--minutes N]
                                                       let TRMNL devices fetch their token for N minutes (5)
  outfit-display simulate --config F --display ID [--wakes N] [--out DIR] [--web]
        [--via http|trmnl|mqtt|panel|esphome [--deep-sleep]|oepl] [--speed X] [--max-sleep S] [--interval S]
        [--url URL] [--mac MAC]
        [--mqtt-url URL] [--web-port N] [--max-image-bytes N] [--model og|og_plus|x|reterminal_e1001|xiao|kindle]
        [--button K[,K]] [--sensors temperature=N,humidity=N,co2=N] [--battery N] [--day [--schedule CRON]]
                                                       the firmware simulator against a running daemon; --model plays
                                                       that device, --day prints a day of the schedule
  outfit-display panel show --panel ID [--config F [--display ID]] [--capture FILE] FRAME.png
                                                       put a frame on the panel on this machine's header (the
                                                       PNG must be the panel's size and colours); --capture: write
                                                       the command stream to FILE instead of SPI and GPIO
  outfit-display panel clear|info [--panel ID] [--config F [--display ID]] [--capture FILE]
                                                       clear the panel (to store it) / say what is attached and
                                                       how it is wired
  outfit-display service-sim [--port N] [--host H] [--credits N] [--rate-limit N]
        [--billing success|every-200|every-request]
                                                       the simulated outfit service on its own; --credits: the
                                                       demo key's balance (default 1000000); --rate-limit: requests
                                                       a minute (default 60); --billing: which requests are billed:
                                                       only a good answer (success, the default), every success
                                                       body produced even if it then broke or the client left
                                                       (every-200), or every request with a valid key that reached
                                                       an endpoint, whatever the answer (every-request)

Exit codes: 0 ok, 1 failure, 2 bad usage or config, 3 API key rejected, 4 budget used up.`;
