/**
 * Unit, integration and history tests run on a clock that skips waits (test/helpers/clock.cts): a 429's
 * wait, a retry's delay or a poll's budget costs them no real time. The in-process sandbox takes
 * the same clock (test/helpers/sandbox.cts), so its windows and generations move with it; what
 * measures a real socket (a silent body, a request's timeout) stays on the real clock. The e2e
 * tests run a real n8n, on the real clock. One clock per test file: its time never goes back.
 */
import { SkippingClock, useClock } from './helpers/clock.cjs';

if (/[\\/]test[\\/](unit|integration|histories)[\\/]/.test(expect.getState().testPath ?? '')) {
	useClock(new SkippingClock());
	afterAll(() => useClock());
}
