/**
 * The clock the unit and integration tests run on (test/helpers/clock.cts): every wait those tests
 * skip rests on it, so it is checked against what a real clock does.
 */
import { currentClock, REAL_CLOCK } from '../../nodes/shared/clock';
import { SkippingClock } from '../helpers/clock.cjs';

test('the tests of this folder run on a clock that skips waits; n8n keeps the real one', () => {
	expect(currentClock()).toBeInstanceOf(SkippingClock);
	const before = Date.now();
	const read = REAL_CLOCK.now();
	expect(read).toBeGreaterThanOrEqual(before);
	expect(read).toBeLessThanOrEqual(Date.now());
});

test('waits end in the order of their ends, not of their starts, and time never goes back', async () => {
	const clock = new SkippingClock();
	const started = clock.now();
	const ended: Array<[string, number]> = [];
	const wait = async (name: string, ms: number) => {
		await clock.wait(ms);
		ended.push([name, clock.now() - started]);
	};
	const realStart = Date.now();
	await Promise.all([wait('long', 60_000), wait('short', 997), wait('middle', 30_011)]);
	expect(ended.map(([name]) => name)).toEqual(['short', 'middle', 'long']);
	// Each ends no sooner than asked, and concurrent waits overlap: 60 s, not their sum.
	expect(ended[0][1]).toBeGreaterThanOrEqual(997);
	expect(ended[1][1]).toBeGreaterThanOrEqual(30_011);
	expect(ended[2][1]).toBeGreaterThanOrEqual(60_000);
	expect(ended[2][1]).toBeLessThan(60_000 + 1000);
	expect(Date.now() - realStart).toBeLessThan(1000); // skipped, not slept
	const later = clock.now();
	await clock.wait(0);
	expect(clock.now()).toBeGreaterThanOrEqual(later);
});

test('a wait started while another runs ends at its own time (a wait chained after an earlier one)', async () => {
	const clock = new SkippingClock();
	const started = clock.now();
	let chainedAt = 0;
	let otherAt = 0;
	await Promise.all([
		(async () => {
			await clock.wait(1009);
			await clock.wait(1009);
			chainedAt = clock.now() - started;
		})(),
		(async () => {
			await clock.wait(1511);
			otherAt = clock.now() - started;
		})(),
	]);
	expect(otherAt).toBeGreaterThanOrEqual(1511);
	expect(otherAt).toBeLessThan(2018);
	expect(chainedAt).toBeGreaterThanOrEqual(2018);
});

test('a cancelled execution ends its wait with the reason, and the others go on', async () => {
	const clock = new SkippingClock();
	const controller = new AbortController();
	const cancelled = clock.wait(5000, controller.signal);
	const other = clock.wait(7000);
	controller.abort(new Error('cancelled by the user'));
	await expect(cancelled).rejects.toThrow('cancelled by the user');
	await expect(other).resolves.toBeUndefined();
	await expect(clock.wait(10, controller.signal)).rejects.toThrow('cancelled by the user');
});
