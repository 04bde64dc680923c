/**
 * Timelines of one scripted service for the generation trigger's suites (test/unit/trigger.test.cts,
 * test/histories/triggerScale.test.cts): each step changes the service and polls, and says which
 * ids that poll fires; the totals say what fired once, twice, never, or should not have.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { READ_RETRY_DELAYS_MS } from '../../nodes/shared/transport';
import nock from 'nock';

import { apiKeyCredentials, pingAnswer, servePing } from './fixtures.cjs';
import { GenerationService, type ListShape } from './generationService.cjs';
import { activeTrigger, triggerWorkflow } from './harness.cjs';

export type Trigger = ReturnType<typeof activeTrigger>;
export type Fired = Awaited<ReturnType<Trigger['poll']>>;

export const ids = (result: Fired) => (result?.[0] ?? []).map((item) => String(item.json.id));

/**
 * A timeline against one service: each step changes the service, then polls (or restarts n8n, or
 * lets the list read fail), and says exactly which ids that poll fires. At the end: every
 * generation that finished after activation fired once, none twice, none that finished before.
 */
export interface Step {
	act?: (service: GenerationService) => void;
	/** n8n restarts: a new workflow from the saved static data, activated with 'init'. */
	restart?: boolean;
	/** The list read fails with 500 (every try of it) during this step's poll: the poll throws. */
	failList?: boolean;
	/** Ids this poll fires, in order; 'throws' for a poll that fails. */
	fires: string[] | 'throws';
}

export interface Totals {
	firedOnce: number;
	firedTwice: number;
	lost: number;
	firedOld: number;
}

export async function runTimeline(
	shape: ListShape,
	setup: (service: GenerationService) => void,
	steps: Step[],
	parameters: INodeParameters = { events: ['done'] },
): Promise<Totals & { service: GenerationService; items: IDataObject[] }> {
	const service = new GenerationService(shape);
	service.serve();
	setup(service);
	let workflow = triggerWorkflow(parameters);
	let trigger = activeTrigger(workflow, apiKeyCredentials);
	expect(await trigger.poll()).toBeNull(); // the baseline
	service.startCounting();
	const times = new Map<string, number>();
	const items: IDataObject[] = [];
	for (const [index, step] of steps.entries()) {
		step.act?.(service);
		if (step.restart) {
			workflow = triggerWorkflow(
				parameters,
				JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject,
			);
			trigger = activeTrigger(workflow, apiKeyCredentials, 'init');
		}
		service.listFailures = step.failList ? READ_TRIES : 0;
		if (step.fires === 'throws') {
			const before = JSON.stringify(workflow.staticData);
			await expect(trigger.poll()).rejects.toThrow();
			expect(JSON.stringify(workflow.staticData)).toBe(before);
			continue;
		}
		const fired = await trigger.poll();
		for (const item of fired?.[0] ?? []) items.push(item.json);
		const firedIds = ids(fired);
		for (const id of firedIds) times.set(id, (times.get(id) ?? 0) + 1);
		expect({ step: index, fired: firedIds }).toEqual({ step: index, fired: step.fires });
	}
	const statuses = (parameters.events as string[]) ?? ['done'];
	const due = [...service.finishedSinceStart]
		.filter(([, status]) => statuses.includes(status))
		.map(([id]) => id);
	const totals = {
		firedOnce: [...times.values()].filter((n) => n === 1).length,
		firedTwice: [...times.values()].filter((n) => n > 1).length,
		lost: due.filter((id) => !times.has(id)).length,
		firedOld: [...times.keys()].filter((id) => !due.includes(id)).length,
	};
	return { ...totals, service, items };
}

/** The transport tries a read this many times before the poll fails. */
export const READ_TRIES = READ_RETRY_DELAYS_MS.length + 1;

export const quiet = (polls: number): Step[] =>
	Array.from({ length: polls }, () => ({ fires: [] }));

export const NO_TIMESTAMPS: ListShape = { timestamps: 'none', order: 'creation' };
export const SHAPES: Array<[string, ListShape]> = [
	['no timestamps, unpaged, creation order', NO_TIMESTAMPS],
	[
		'no timestamps, paged 20, creation order',
		{ timestamps: 'none', order: 'creation', pageSize: 20 },
	],
	[
		'no timestamps, unpaged, completion order, unfinished on top',
		{ timestamps: 'none', order: 'completion', pendingAt: 'top' },
	],
	[
		'no timestamps, paged 20, completion order, unfinished at the bottom',
		{ timestamps: 'none', order: 'completion', pendingAt: 'bottom', pageSize: 20 },
	],
	['finish times, unpaged, creation order', { timestamps: 'finish', order: 'creation' }],
	[
		'finish times, paged 20, completion order',
		{ timestamps: 'finish', order: 'completion', pageSize: 20 },
	],
	[
		'no timestamps, list cut to the newest 100',
		{ timestamps: 'none', order: 'creation', window: 100 },
	],
	['no timestamps, sorted by last update', { timestamps: 'none', order: 'update' }],
];

export const scenarioTotals: string[] = [];

/**
 * A timeline suite's hooks (call at its top level): a fresh service answer before each test (the
 * ping of account org_1), the scenarios' totals printed after the suite.
 */
export function useTimelineSuite(): void {
	beforeEach(() => {
		nock.cleanAll();
		pingAnswer.organization = 'org_1';
		servePing();
	});
	afterAll(() => {
		// eslint-disable-next-line no-console
		console.info(`trigger scenarios:\n${scenarioTotals.join('\n')}`);
	});
}

export function report(name: string, totals: Totals): void {
	scenarioTotals.push(
		`  ${name}: fired once ${totals.firedOnce}, fired twice ${totals.firedTwice}, lost ${totals.lost}, old ones fired ${totals.firedOld}`,
	);
	expect({ firedTwice: totals.firedTwice, lost: totals.lost, firedOld: totals.firedOld }).toEqual({
		firedTwice: 0,
		lost: 0,
		firedOld: 0,
	});
}
