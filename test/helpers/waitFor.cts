/**
 * Waits until `check` holds (it may poll the service), within a generous deadline: tests share a
 * busy 2-core machine, so they wait for the event, never for a fixed time. Returns the last value
 * `check` gave (truthy once it holds), so the caller asserts on it. The default deadline ends
 * inside jest's 30 s test timeout, so a check that never holds fails on its own assertion.
 */
export async function waitFor<T>(
	check: () => T | Promise<T>,
	{ deadlineMs = 20_000, everyMs = 50 } = {},
): Promise<T> {
	const until = Date.now() + deadlineMs;
	for (;;) {
		const value = await check();
		if (value || Date.now() >= until) return value;
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
