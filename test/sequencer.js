// The order jest starts the suites in. With two workers, the run lasts at least as long as its
// longest suite, the trigger-engine e2e (~5 minutes of n8n's once-a-minute polls): it must start
// first, beside everything else. jest orders by the durations of earlier runs, which a fresh clone
// (CI) does not have, and then by file size, which put that suite last (386 s instead of 308 s).
'use strict';
const Sequencer = require('@jest/test-sequencer').default;

/** The slowest suites, slowest first: each starts before any other. */
const FIRST = [
	'test/e2e/triggerEngines.e2e.test.cts',
	'test/e2e/n8n.e2e.test.cts',
	'test/e2e/demo.e2e.test.cts',
	'test/histories/triggerScale.test.cts',
	'test/histories/triggerModel.test.cts',
];

class SlowestFirst extends Sequencer {
	sort(tests) {
		const rank = (test) => {
			const index = FIRST.findIndex((path) => test.path.endsWith(path));
			return index < 0 ? FIRST.length : index;
		};
		const ranked = (known) => [...known].sort((a, b) => rank(a) - rank(b));
		const known = super.sort(tests);
		return known instanceof Promise ? known.then(ranked) : ranked(known);
	}
}

module.exports = SlowestFirst;
