"""The load the lab-python drivers put on a writer, as the JavaScript drivers put theirs
(lab/load/paced-load.ts): open loop, call number i starts at i / RATE seconds whatever the
replies do, for SECONDS seconds, with at most MAX_IN_FLIGHT calls pending (a call that would
pass the cap is skipped and counted, so a slow lab cannot pile up work). SDK retries are off
(AWS_MAX_ATTEMPTS=1 in the environment): each call is accepted, throttled, or another error,
counted by code and by the second it completed in. So a Python example's throttle figures
are comparable with a JavaScript one's at the same rate and duration."""
import concurrent.futures
import threading
import time

from botocore.exceptions import ClientError

THROTTLES = {"ThrottlingException", "ProvisionedThroughputExceededException"}


def drive(rate, seconds, write, max_in_flight=64, warm=None):
    """Calls write(i) at `rate` calls per second for `seconds` seconds; returns the counts.

    `warm`, called once in each worker thread before the clock starts, loads what boto3 loads
    on a thread's first call (the service model, the endpoint): seconds on a loaded machine,
    which would otherwise fill every in-flight slot at the start and skip the rest."""
    if warm is not None:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max_in_flight) as pool:
            list(pool.map(lambda _: warm(), range(max_in_flight)))
    counts = {"sent": 0, "skipped": 0, "ok": 0, "throttled": 0, "other": [], "per_second": []}
    lock = threading.Lock()
    slots = threading.BoundedSemaphore(max_in_flight)

    def second(field):
        s = int(time.monotonic() - start)
        while len(counts["per_second"]) <= s:
            counts["per_second"].append({"ok": 0, "throttled": 0})
        counts["per_second"][s][field] += 1

    def one(i):
        try:
            write(i)
            with lock:
                counts["ok"] += 1
                second("ok")
        except ClientError as e:
            code = e.response["Error"]["Code"]
            with lock:
                if code in THROTTLES:
                    counts["throttled"] += 1
                    second("throttled")
                else:
                    counts["other"].append(code)
        finally:
            slots.release()

    total = int(rate * seconds)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max_in_flight) as pool:
        for i in range(total):
            # The schedule, not the replies, decides when call i starts.
            delay = start + i / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if not slots.acquire(blocking=False):
                counts["skipped"] += 1
                continue
            counts["sent"] += 1
            pool.submit(one, i)
    counts["elapsed_ms"] = round((time.monotonic() - start) * 1000)
    return counts
