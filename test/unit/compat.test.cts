/**
 * Older n8n, simulated: n8n-workflow as n8n 1.60–1.84 ships it (no NodeConnectionTypes; a sleep
 * that ignores its signal). The nodes must still build, and a cancelled wait must end at once.
 * The same code is run against real old n8n by `npm run test:compat` (README "Compatibility").
 */
type Workflow = typeof import('n8n-workflow');

function withOldN8nWorkflow<T>(load: () => T): T {
	let loaded: T | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => {
			const actual = jest.requireActual<Workflow>('n8n-workflow');
			return {
				...actual,
				NodeConnectionTypes: undefined,
				// Before 2.34: the second argument is ignored.
				sleep: async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms)),
			};
		});
		loaded = load();
	});
	jest.dontMock('n8n-workflow');
	return loaded as T;
}

describe('on an n8n-workflow without NodeConnectionTypes and with a signal-blind sleep', () => {
	test('both nodes build, with their connections named "main"', () => {
		const { action, trigger } = withOldN8nWorkflow(() => ({
			action: new (jest.requireActual<
				typeof import('../../nodes/SocialContent/SocialContent.node')
			>('../../nodes/SocialContent/SocialContent.node').SocialContent)(),
			trigger: new (jest.requireActual<
				typeof import('../../nodes/SocialContentTrigger/SocialContentTrigger.node')
			>('../../nodes/SocialContentTrigger/SocialContentTrigger.node').SocialContentTrigger)(),
		}));
		expect(action.description.inputs).toEqual(['main']);
		expect(action.description.outputs).toEqual(['main']);
		expect(trigger.description.outputs).toEqual(['main']);
	});

	test('a wait ends as soon as the execution is cancelled, with the cancel reason', async () => {
		const { abortableWait } = withOldN8nWorkflow(() =>
			jest.requireActual<typeof import('../../nodes/shared/compat')>('../../nodes/shared/compat'),
		);
		const controller = new AbortController();
		const started = Date.now();
		const waiting = abortableWait(60_000, controller.signal);
		setTimeout(() => controller.abort(new Error('cancelled by the user')), 20);
		await expect(waiting).rejects.toThrow('cancelled by the user');
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	test('a wait already cancelled does not start; one not cancelled waits its time', async () => {
		const { abortableWait } = withOldN8nWorkflow(() =>
			jest.requireActual<typeof import('../../nodes/shared/compat')>('../../nodes/shared/compat'),
		);
		const cancelled = new AbortController();
		cancelled.abort();
		await expect(abortableWait(60_000, cancelled.signal)).rejects.toThrow();
		const started = Date.now();
		await abortableWait(50, new AbortController().signal);
		expect(Date.now() - started).toBeGreaterThanOrEqual(45);
	});
});

describe('on the current n8n-workflow', () => {
	test("the connection is the enum's", () => {
		const { NodeConnectionTypes } = jest.requireActual<Workflow>('n8n-workflow');
		const { MAIN_CONNECTION } = jest.requireActual<typeof import('../../nodes/shared/compat')>(
			'../../nodes/shared/compat',
		);
		expect(MAIN_CONNECTION).toBe(NodeConnectionTypes.Main);
	});
});
