/**
 * The trigger's real poll path against the sandbox (a real HTTP server) answering the ways the
 * spec allows and our friendliest settings never do: a list sorted by last update with no time
 * fields, and 200 answers with no generations in them.
 */
import type { IDataObject } from 'n8n-workflow';

import { sandboxForSuite } from '../helpers/sandbox.cjs';
import { activeTrigger, triggerWorkflow } from '../helpers/harness.cjs';

const headers = { Authorization: 'sk_sandbox_demo_key', 'Content-Type': 'application/json' };
const suite = sandboxForSuite({ queuedMs: 1e9, runningMs: 0, buckets: { studio: { limit: 1e6 } } });

const start = async () =>
	String(
		(
			(await (
				await fetch(`${suite.url}/api/public/v1/studio/generations`, {
					method: 'POST',
					headers,
					body: JSON.stringify({ formatId: 'wall_of_text', input: { hook: 'x' } }),
				})
			).json()) as IDataObject
		).id,
	);
const control = async (what: 'finish' | 'touch', ids: string[]) =>
	await fetch(`${suite.url}/__sandbox/${what}`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ ids }),
	});

test('sorted by last update, no time fields, 200 answers with no list: only new generations fire, once', async () => {
	Object.assign(suite.sandbox.config, { generationTimestamps: false, generationOrder: 'update' });
	suite.sandbox.state.credits = 1000;
	const old: string[] = [];
	for (let i = 0; i < 30; i++) old.push(await start());
	await control('finish', old);
	const trigger = activeTrigger(triggerWorkflow({ events: ['done'] }), suite.credentials);
	expect(await trigger.poll()).toBeNull(); // the baseline

	const fired: string[] = [];
	const pollOnce = async () =>
		fired.push(...((await trigger.poll())?.[0] ?? []).map((item) => String(item.json.id)));
	await control('touch', [old[0], old[7], old[29]]); // old ones jump to the top of the list
	await pollOnce();
	for (const body of [[], '', { data: {} }, { generations: null }, { ok: true }]) {
		suite.sandbox.state.faults.push({
			kind: 'status',
			status: 200,
			body,
			method: 'GET',
			path: 'studio/generations$',
			count: 1,
		});
		await pollOnce();
		await pollOnce();
	}
	const fresh = await start();
	await control('finish', [fresh]);
	await pollOnce();
	await control('touch', [fresh, old[3]]);
	await pollOnce();
	await pollOnce();
	expect(fired).toEqual([fresh]);
});
