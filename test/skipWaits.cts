/**
 * Unit tests run on a clock that skips waits (test/helpers/clock.cts): a 429's wait, a retry's
 * delay or a poll's budget costs them no real time. Integration and e2e tests talk to real
 * servers, whose time is real, and keep the real clock. One clock per test file, so its time
 * never goes back between tests.
 */
import { SkippingClock, useClock } from './helpers/clock.cjs';

if (/[\\/]test[\\/]unit[\\/]/.test(expect.getState().testPath ?? '')) {
	useClock(new SkippingClock());
	afterAll(() => useClock());
}
