"""The concurrent load the lab-python drivers put on a writer: THREADS threads each call
`write(thread, n)` PER_THREAD times with SDK retries off (AWS_MAX_ATTEMPTS=1 in the
environment), counting the writes accepted, the ones throttled, and the codes of any other
error."""
import concurrent.futures
import threading

from botocore.exceptions import ClientError

THROTTLES = {"ThrottlingException", "ProvisionedThroughputExceededException"}


def drive(threads, per_thread, write):
    counts = {"ok": 0, "throttled": 0, "other": []}
    lock = threading.Lock()

    def worker(t):
        for n in range(per_thread):
            try:
                write(t, n)
                with lock:
                    counts["ok"] += 1
            except ClientError as e:
                code = e.response["Error"]["Code"]
                with lock:
                    if code in THROTTLES:
                        counts["throttled"] += 1
                    else:
                        counts["other"].append(code)

    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(worker, range(threads)))
    return counts
