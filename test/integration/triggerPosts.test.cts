/**
 * Post Published / Post Failed against the sandbox (a real HTTP server) in both answer profiles
 * and both list shapes: posts scheduled through the action node go out (or fail) when due, and
 * the trigger, polled as n8n polls it, fires each once with its link or its reason.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { clockNow, currentClock } from '../helpers/clock.cjs';
import { sandboxForSuite } from '../helpers/sandbox.cjs';
import {
	ACTION_NODE_TYPE,
	activeTrigger,
	runChain,
	START_NODE_TYPE,
	triggerWorkflow,
} from '../helpers/harness.cjs';

const suite = sandboxForSuite();

/** Post → Create through the action node: scheduled for `dateMs`, or published now without it. */
async function schedulePost(text: string, channels: string[], dateMs?: number): Promise<string[]> {
	const when =
		dateMs === undefined
			? { type: 'now' }
			: { type: 'schedule', date: new Date(dateMs).toISOString() };
	const parameters = {
		resource: 'post',
		operation: 'create',
		...when,
		channels,
		content: { parts: [{ text }] },
	} as INodeParameters;
	const result = await runChain(
		[
			{ name: 'Start', type: START_NODE_TYPE },
			{
				name: 'Node',
				type: ACTION_NODE_TYPE,
				parameters,
				credentials: { socialContentApi: { id: '1', name: 'c' } },
			},
		],
		{ credentials: suite.credentials, settings: { timezone: 'UTC' } },
	);
	expect(result.error).toBeUndefined();
	return result.output('Node').map((item) => String(item.json.postId));
}

/** The sandbox changes posts (edits, moves them in time) as a person in the service's app would. */
const control = async (body: IDataObject) =>
	await fetch(`${suite.url}/__sandbox/posts`, { method: 'POST', body: JSON.stringify(body) });

/**
 * Polls as n8n would, a second apart on the tests' clock (the sandbox's too: its posts go out as
 * that time passes), until `done` says so, within a generous deadline.
 */
async function pollUntil(
	trigger: ReturnType<typeof activeTrigger>,
	fired: IDataObject[],
	done: () => boolean,
	deadlineMs = 60_000,
): Promise<void> {
	const until = clockNow() + deadlineMs;
	while (!done() && clockNow() < until) {
		fired.push(...((await trigger.poll())?.[0] ?? []).map((item) => item.json));
		if (!done()) await currentClock().wait(1000);
	}
}

describe.each([
	['spec', 'wrapped'],
	['spec', 'bare'],
	['postiz', 'wrapped'],
])('the %s profile, %s list', (profile, postList) => {
	const postiz = profile === 'postiz';
	beforeEach(() => {
		suite.sandbox.reset();
		Object.assign(suite.sandbox.config, { profile, postList });
	});

	test('posts out before activation do not fire; scheduled ones fire once when they go out or fail, with link or reason', async () => {
		const [old] = await schedulePost('Out last week', ['ch_x']);
		await control({ ids: [old], publishDate: new Date(clockNow() - 6 * 86_400_000).toISOString() });
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['postPublished', 'postFailed'] }),
			suite.credentials,
		);
		expect(await trigger.poll()).toBeNull(); // the baseline (the old post went out at the first read)
		expect(suite.sandbox.state.posts.find((post) => post.id === old)?.status).toBe('published');

		const due = clockNow() + 1500;
		const [onX, onLinkedIn] = await schedulePost(
			'Launch day is here',
			['ch_x', 'ch_linkedin'],
			due,
		);
		const [failing] = await schedulePost('This one will not go [fail]', ['ch_x'], due);
		const fired: IDataObject[] = [];
		await pollUntil(trigger, fired, () => fired.length >= 3);
		for (let poll = 0; poll < 3; poll++)
			fired.push(...((await trigger.poll())?.[0] ?? []).map((item) => item.json));

		expect(fired.map((post) => `${String(post.id)}|${String(post.state)}`).sort()).toEqual(
			[`${onX}|published`, `${onLinkedIn}|published`, `${failing}|failed`].sort(),
		);
		expect(fired.find((post) => post.id === onX)).toMatchObject({
			channel: { id: 'ch_x', name: 'Sandbox on X', network: 'x' },
			url: `https://x.example.com/p/${onX}`,
			text: 'Launch day is here',
			error: null,
		});
		expect(fired.find((post) => post.id === onLinkedIn)).toMatchObject({
			channel: { id: 'ch_linkedin', network: 'linkedin' },
			url: `https://linkedin.example.com/p/${onLinkedIn}`,
		});
		// The real backend's list gives no failure reason; ours does.
		expect(fired.find((post) => post.id === failing)?.error).toEqual(
			postiz ? null : expect.stringContaining('refused'),
		);
		expect(
			fired.every((post) => typeof post.date === 'string' && String(post.date).endsWith('Z')),
		).toBe(true);
	}, 120_000);

	test('an edited or moved post that went out does not fire again', async () => {
		const trigger = activeTrigger(
			triggerWorkflow({ events: ['postPublished'] }),
			suite.credentials,
		);
		await trigger.poll();
		const [id] = await schedulePost('Going out now', ['ch_x']);
		const fired: IDataObject[] = [];
		await pollUntil(trigger, fired, () => fired.length >= 1);
		await control({
			ids: [id],
			content: 'Edited',
			publishDate: new Date(clockNow() + 3_600_000).toISOString(),
		});
		for (let poll = 0; poll < 3; poll++)
			fired.push(...((await trigger.poll())?.[0] ?? []).map((item) => item.json));
		expect(fired.map((post) => post.id)).toEqual([id]);
	}, 120_000);
});
