#!/usr/bin/env node
// Pictures of the editor after the fixes of issue 69, from a real n8n with the package: start
// `npm run demo`, then
//   CHROMIUM=/usr/bin/chromium <Node 22+> scripts/editor-screenshots.js
// (SANDBOX_URL if the stand-in service is not on http://127.0.0.1:4010; N8N_URL as for
// scripts/screenshots.js). Through n8n's REST API it adds a credential with a wrong key and one
// small workflow per scene ("Editor check: …", an earlier run's removed), then in headless
// Chromium opens each node's panel, clicks what a user clicks (menus, Add buttons, Execute step), checks that
// the page shows the words the fix is about, and writes the PNG to .github/images/editor/
// (listed in its README.md). Nothing here changes the demo's example workflows.
'use strict';
const { mkdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const {
	N8N,
	BROWSER_ID,
	sleep,
	login,
	startChromium,
	signedInPage,
	capture,
} = require('./screenshots');

const SANDBOX = process.env.SANDBOX_URL || 'http://127.0.0.1:4010';
const OUT = join(__dirname, '..', '.github', 'images', 'editor');
const NODE_TYPE = 'n8n-nodes-social-content.socialContent';
const DEMO_CREDENTIAL = { id: 'sandboxApiKey', name: 'Social Content (sandbox)' };
const WRONG_KEY_CREDENTIAL = 'Social Content (wrong key)';
const WORKFLOW_PREFIX = 'Editor check: ';

/** A Format Inputs field as n8n saves it in the node. */
const field = (id, displayName, type, extra = {}) => ({
	id,
	displayName,
	required: false,
	defaultMatch: false,
	display: true,
	type,
	canBeUsedToMatch: false,
	...extra,
});
/** The slideshow's fields as the panel loads them today: Captions hidden, filled under List Inputs. */
const SLIDESHOW_FIELDS = [
	field('hook', 'Hook', 'string', { required: true }),
	field('slides', 'Slides', 'number'),
	field('list:string:optional:captions', 'Captions', 'array', { display: false }),
];
/** As an older form of the panel saved them: Captions a one-line field of its own. */
const OLDER_SLIDESHOW_FIELDS = [
	field('hook', 'Hook', 'string', { required: true }),
	field('slides', 'Slides', 'number'),
	field('captions', 'Captions', 'string'),
];

function startSlideshow(fields, value, extra = {}) {
	return {
		resource: 'studio',
		operation: 'startGeneration',
		format: {
			__rl: true,
			mode: 'list',
			value: 'slideshow',
			cachedResultName: 'Slideshow · 5 credits',
		},
		inputs: {
			mappingMode: 'defineBelow',
			value,
			matchingColumns: [],
			schema: fields,
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		},
		waitForCompletion: false,
		...extra,
	};
}

const createPost = (extra = {}) => ({
	resource: 'post',
	operation: 'create',
	type: 'now',
	channels: ['ch_x', 'ch_linkedin'],
	content: { parts: [{ text: '5 habits that doubled our reach' }] },
	...extra,
});

/**
 * A manual trigger, then these nodes in a row (each: id, name, parameters, credential?: the
 * wrong-key one when 'wrongKey').
 */
function workflow(name, nodes, wrongKey) {
	const placed = nodes.map((node, index) => ({
		id: node.id,
		name: node.name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [220 * (index + 1), 0],
		parameters: node.parameters,
		credentials: { socialContentApi: node.credential === 'wrongKey' ? wrongKey : DEMO_CREDENTIAL },
	}));
	const names = ['When clicking Execute', ...placed.map((node) => node.name)];
	return {
		name: `${WORKFLOW_PREFIX}${name}`,
		nodes: [
			{
				id: 'manual',
				name: names[0],
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...placed,
		],
		connections: Object.fromEntries(
			names
				.slice(0, -1)
				.map((from, index) => [
					from,
					{ main: [[{ node: names[index + 1], type: 'main', index: 0 }]] },
				]),
		),
		settings: {},
	};
}

/** n8n's REST API as the signed-in owner. */
function restClient(cookie) {
	return async (method, path, body) => {
		const response = await fetch(`${N8N}/rest${path}`, {
			method,
			headers: {
				'Content-Type': 'application/json',
				'browser-id': BROWSER_ID,
				cookie: `n8n-auth=${cookie}`,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, data: text ? JSON.parse(text).data : undefined };
	};
}

/**
 * The wrong-key credential (made once per n8n), and no workflow left from an earlier run: each
 * scene gets a new one, under a new ID (n8n keeps a workflow's edit lock for two minutes after a
 * browser goes, so an ID opened by an earlier run could open read-only).
 */
async function prepare(rest) {
	const credentials = (await rest('GET', '/credentials')).data ?? [];
	let wrongKey = credentials.find((entry) => entry.name === WRONG_KEY_CREDENTIAL);
	if (!wrongKey) {
		const made = await rest('POST', '/credentials', {
			name: WRONG_KEY_CREDENTIAL,
			type: 'socialContentApi',
			data: { instanceUrl: SANDBOX, apiKey: 'sk_not_this_instances_key' },
		});
		if (made.status !== 200) throw new Error(`credential: ${made.status}`);
		wrongKey = made.data;
	}
	const earlier = (await rest('GET', '/workflows')).data ?? [];
	for (const { id } of earlier.filter((entry) => entry.name.startsWith(WORKFLOW_PREFIX))) {
		// n8n deletes only an archived workflow.
		await rest('POST', `/workflows/${id}/archive`, {});
		await rest('DELETE', `/workflows/${id}`);
	}
	return { id: wrongKey.id, name: wrongKey.name };
}

/** The scene's workflow, made under an ID of this run; returns the ID. */
async function create(rest, definition, id) {
	const made = await rest('POST', '/workflows', { ...definition, id });
	if (made.status !== 200) throw new Error(`workflow ${definition.name}: ${made.status}`);
	return id;
}

async function setSandboxProfile(profile) {
	const response = await fetch(`${SANDBOX}/__sandbox/config`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ profile }),
	});
	if (!response.ok) throw new Error(`sandbox config: ${response.status} (is SANDBOX_URL right?)`);
}

/** What a scene does on the page: find, click, type, run; every wait is for something to show. */
function editor(page) {
	const evaluate = async (expression) => {
		const { result, exceptionDetails } = await page.call('Runtime.evaluate', {
			expression,
			returnByValue: true,
		});
		if (exceptionDetails) throw new Error(`page: ${exceptionDetails.text}`);
		return result.value;
	};
	const until = async (what, expression, tries = 150) => {
		for (let attempt = 0; attempt < tries; attempt++) {
			const value = await evaluate(expression);
			if (value) return value;
			await sleep(200);
		}
		throw new Error(`not shown: ${what}`);
	};
	const visibleText = (text, selector) =>
		`[...document.querySelectorAll(${JSON.stringify(selector)})].filter((e) => e.offsetParent !== null && e.textContent.trim() === ${JSON.stringify(text)}).pop()`;
	const mouse = async (type, at) =>
		page.call('Input.dispatchMouseEvent', {
			type,
			x: at.x,
			y: at.y,
			button: 'left',
			clickCount: 1,
		});
	/** The element's centre, scrolled into the middle of its panel. */
	const centre = (what, element) =>
		until(
			what,
			`(() => { const e = ${element}; if (!e) return null; e.scrollIntoView({ block: 'center', behavior: 'instant' }); const b = e.getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; })()`,
		);
	const click = async (what, element) => {
		await centre(what, element);
		await sleep(300); // the scroll settles
		const at = await centre(what, element);
		for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) await mouse(type, at);
		await sleep(700); // menus open, rows are drawn, lists start loading
	};
	const key = async (name, code, modifiers = 0) => {
		for (const type of ['keyDown', 'keyUp'])
			await page.call('Input.dispatchKeyEvent', {
				type,
				key: name,
				code,
				modifiers,
				windowsVirtualKeyCode: name === 'End' ? 35 : name.toUpperCase().charCodeAt(0),
			});
	};
	return {
		until,
		async open(workflowId, nodeId) {
			await page.call('Page.navigate', { url: `${N8N}/workflow/${workflowId}/${nodeId}` });
			await until(
				'the node panel',
				`Boolean(document.querySelector('[data-test-id="ndv"] [data-test-id="node-parameters"]'))`,
			);
			await sleep(1500); // its lists load
		},
		clickText: (text, selector = '*') => click(`"${text}"`, visibleText(text, selector)),
		clickPlaceholder: (text) =>
			click(`"${text}"`, `document.querySelector('input[placeholder=${JSON.stringify(text)}]')`),
		clickInput: (name) =>
			click(
				`${name}'s input`,
				`document.querySelector('[data-test-id="parameter-input-${name}"] input, [data-test-id="parameter-input-${name}"] textarea')`,
			),
		/** An item of Format Inputs' ⋮ menu (n8n labels the list "Values to Send"). */
		async formatInputsMenu(item) {
			await click(
				'the ⋮ of Format Inputs',
				`document.querySelector('[data-test-id="columns-parameter-input-options-container"] [data-test-id="action-toggle"] button')`,
			);
			await click(`"${item}"`, visibleText(item, '[role=menuitem], li'));
			await sleep(1500); // the fields reload
		},
		async typeAtEnd(text) {
			await key('End', 'End');
			await page.call('Input.insertText', { text });
			await sleep(500);
		},
		async save() {
			await key('s', 'KeyS', 2); // Ctrl
			await sleep(1500);
		},
		async hover(what, element) {
			await mouse('mouseMoved', await centre(what, element));
			await sleep(1000);
		},
		async executeStep() {
			await click('Execute step', `document.querySelector('[data-test-id="node-execute-button"]')`);
			await until(
				'the run',
				`Boolean(document.querySelector('[data-test-id="output-panel"] [data-test-id^="node-run-status-"]'))`,
			);
			await sleep(1000);
		},
		/** n8n's toasts repeat the run's outcome over the panel: closed before the picture. */
		async closeToasts() {
			await evaluate(
				`document.querySelectorAll('.el-notification .el-notification__closeBtn').forEach((e) => e.click())`,
			);
			await sleep(800);
		},
		/** Fails the scene unless the page shows every one of these texts (and none of `absent`). */
		async expectShown(texts, absent = []) {
			// The words on the page, and what its inputs show (a chosen option, a list's error are an input's).
			const body = await evaluate(
				`document.body.innerText + [...document.querySelectorAll('input, textarea')].filter((e) => e.offsetParent !== null).map((e) => e.value + '\\n' + e.placeholder).join('\\n')`,
			);
			const missing = texts.filter((text) => !body.includes(text));
			const present = absent.filter((text) => body.includes(text));
			if (missing.length || present.length)
				throw new Error(`missing ${JSON.stringify(missing)}; present ${JSON.stringify(present)}`);
		},
	};
}

const NOT_SENT = 'which its panel no longer shows: it was not sent';
const RED = 'is not supported';

/** The node of each scene's workflow; the workflow is made afresh for every scene. */
const SLIDESHOW = {
	id: 'slideshow',
	name: 'Start Slideshow',
	parameters: startSlideshow(
		SLIDESHOW_FIELDS,
		{ hook: 'Three mistakes', slides: 3 },
		{ listInputs: { input: [{ name: '', entries: 'Intro\nMistake one\nOutro' }] } },
	),
};
/** A value kept under the list's name, as Format Inputs of an earlier form saved it. */
const KEPT_UNDER_LIST_NAME = {
	id: 'slideshow',
	name: 'Start Slideshow',
	parameters: startSlideshow(SLIDESHOW_FIELDS, {
		hook: 'Three mistakes',
		captions: 'Old one, old two',
	}),
};
const OLDER_FIELD = {
	id: 'slideshow',
	name: 'Start Slideshow',
	parameters: startSlideshow(OLDER_SLIDESHOW_FIELDS, {
		hook: 'Three mistakes',
		captions: 'Old one, old two',
	}),
};
const SETTING_OF_ANOTHER_NETWORK = {
	id: 'post',
	name: 'Create Post',
	parameters: createPost({
		// An expression in the node: n8n then no longer reloads Setting Name on a change of Applies To.
		content: { parts: [{ text: '={{ "5 habits that doubled our reach" }}' }] },
		settings: {
			setting: [
				{ target: 'network:linkedin', name: 'x:community', value: 'https://x.com/i/communities/1' },
			],
		},
	}),
};
const POST = { id: 'post', name: 'Create Post', parameters: createPost() };
const NO_FORMAT = {
	id: 'studio',
	name: 'Start Generation',
	parameters: {
		resource: 'studio',
		operation: 'startGeneration',
		format: { __rl: true, mode: 'list', value: '' },
	},
};
const WRONG_KEY = [
	{
		id: 'check',
		name: 'Check Connection',
		parameters: { resource: 'account', operation: 'checkConnection' },
		credential: 'wrongKey',
	},
	{
		id: 'post',
		name: 'Create Post',
		parameters: createPost({ channels: [] }),
		credential: 'wrongKey',
	},
];

/** Each picture: its workflow, the node whose panel opens, the steps, the words it must show. */
const SCENES = [
	{
		file: 'slideshow-remove-add-all.png',
		workflow: ['Slideshow, Remove All then Add All Inputs', [SLIDESHOW]],
		async steps(ui, { shoot }) {
			await ui.formatInputsMenu('Remove All Inputs');
			await ui.expectShown(['Add input to send', 'Captions (list of texts)']);
			await shoot('slideshow-remove-all.png');
			await ui.formatInputsMenu('Add All Inputs');
			await ui.executeStep();
			await ui.expectShown(['Captions (list of texts)', 'queued'], ['takes no list']);
		},
	},
	{
		file: 'not-sent-notice.png',
		workflow: ['a list value Format Inputs keeps', [KEPT_UNDER_LIST_NAME]],
		async steps(ui) {
			await ui.executeStep();
			await ui.expectShown([
				`Format Inputs keeps a value for "Captions", ${NOT_SENT}`,
				'refresh its list of inputs, then change any input there',
			]);
		},
	},
	{
		file: 'not-sent-after-list-inputs.png',
		workflow: [
			'a list value Format Inputs keeps, the list under List Inputs',
			[KEPT_UNDER_LIST_NAME],
		],
		async steps(ui) {
			await ui.clickText('Add List Input', 'button');
			await ui.until(
				'the new row',
				`Boolean(document.querySelector('[data-test-id="parameter-input-entries"]'))`,
			);
			await ui.clickInput('entries');
			await ui.typeAtEnd('Intro\nMistake one\nOutro');
			await ui.executeStep();
			await ui.expectShown(['Captions (list of texts)', 'queued'], [NOT_SENT]);
		},
	},
	{
		file: 'not-sent-after-refresh.png',
		workflow: ['a list value Format Inputs keeps, refreshed', [KEPT_UNDER_LIST_NAME]],
		async steps(ui, { rest, workflowId }) {
			await ui.formatInputsMenu('Refresh Input List');
			await ui.clickInput('hook');
			await ui.typeAtEnd('!');
			await ui.executeStep();
			await ui.expectShown(['queued'], [NOT_SENT]);
			// What the saved node keeps now: not the value under the list's name.
			await ui.save();
			const saved = (await rest('GET', `/workflows/${workflowId}`)).data;
			const { value } = saved.nodes.find((node) => node.id === 'slideshow').parameters.inputs;
			if ('captions' in value) throw new Error('the kept value is still saved');
			console.log(`[editor-screenshots]   saved Format Inputs: ${JSON.stringify(value)}`);
		},
	},
	{
		file: 'older-field-400.png',
		workflow: ['a node saved with the older Captions field', [OLDER_FIELD]],
		async steps(ui) {
			// The service answering 400 as NestJS does ("input.captions must be …").
			await setSandboxProfile('postiz');
			try {
				await ui.executeStep();
			} finally {
				await setSandboxProfile('spec');
			}
			await ui.expectShown(
				['Fix "input.captions", the field the service named, and run again.'],
				['The service named no field'],
			);
		},
	},
	{
		file: 'setting-name-hint.png',
		workflow: ['Setting Name and Applies To', [SETTING_OF_ANOTHER_NETWORK]],
		async steps(ui) {
			await ui.executeStep();
			await ui.hover(
				'Setting Name',
				`document.querySelector('[data-test-id="parameter-input-name"]')`,
			);
			await ui.expectShown(
				[
					"If it does not follow a change of Applies To, close the node's panel and open it again.",
					"to keep LinkedIn, close the node's panel and open it again",
				],
				['once reopened'],
			);
		},
	},
	{
		file: 'new-row-media-library.png',
		workflow: ['Add Media, From Media Library', [POST]],
		async steps(ui) {
			await ui.clickText('Add Media', 'button');
			await ui.clickInput('source');
			await ui.clickText('From Media Library');
			await ui.until('the media list', `document.body.innerText.includes('Media File Name or ID')`);
			await ui.expectShown(['Choose a Media File'], [RED]);
		},
	},
	{
		file: 'new-row-text-per-channel.png',
		workflow: ['Add Text for a Channel', [POST]],
		async steps(ui) {
			await ui.clickPlaceholder('Add Option');
			await ui.clickText('Text Per Channel');
			await ui.clickText('Add Text for a Channel', 'button');
			await ui.until('the channel list', `document.body.innerText.includes('Channel Name or ID')`);
			await ui.expectShown(['Choose a Channel'], [RED]);
		},
	},
	{
		file: 'new-row-list-input-no-format.png',
		workflow: ['List Inputs before a format is chosen', [NO_FORMAT]],
		async steps(ui) {
			await ui.clickText('Add List Input', 'button');
			await ui.until(
				'the new row',
				`Boolean(document.querySelector('[data-test-id="parameter-input-entries"]'))`,
			);
			await ui.expectShown(['Choose a Format First'], [RED, 'Error fetching options']);
		},
	},
	{
		file: 'api-key-401-run.png',
		workflow: ['a wrong API key, run', WRONG_KEY],
		node: 'check',
		async steps(ui) {
			await ui.executeStep();
			await ui.expectShown(
				['The service rejected the API key', 'paste a valid API key'],
				['OAuth2', 'Reconnect', '(401)'],
			);
		},
	},
	{
		file: 'api-key-401-picker.png',
		workflow: ['a wrong API key, a list', WRONG_KEY],
		node: 'post',
		async steps(ui) {
			await ui.clickInput('channels');
			await ui.until(
				'the failed list',
				`[...document.querySelectorAll('input')].some((e) => e.value.includes('Error fetching options'))`,
			);
			// The reason shows on the warning sign beside the list.
			await ui.hover(
				'the warning sign',
				`[...document.querySelectorAll('[data-icon="triangle-alert"]')].find((e) => e.offsetParent !== null)`,
			);
			await ui.expectShown(['paste a valid API key'], ['OAuth2', '401 -', '(401)']);
		},
	},
];

async function main() {
	mkdirSync(OUT, { recursive: true });
	const only = process.argv.slice(2);
	const cookie = await login();
	const rest = restClient(cookie);
	const wrongKey = await prepare(rest);
	const run = Date.now().toString(36);
	const chromium = startChromium();
	try {
		const page = await signedInPage(cookie);
		const ui = editor(page);
		const shoot = async (file) => {
			await ui.closeToasts();
			await capture(page, join(OUT, file));
			console.log(`[editor-screenshots] ${file}`);
		};
		const scenes = SCENES.filter((entry) => !only.length || only.includes(entry.file));
		for (const [index, scene] of scenes.entries()) {
			const [name, nodes] = scene.workflow;
			const workflowId = await create(
				rest,
				workflow(name, nodes, wrongKey),
				`editor-${run}-${index}`,
			);
			try {
				await ui.open(workflowId, scene.node ?? nodes[0].id);
				await scene.steps(ui, { rest, shoot, workflowId });
			} catch (error) {
				const seen = join(tmpdir(), `failed-${scene.file}`);
				await capture(page, seen);
				throw new Error(`${scene.file}: ${error.message} (the page then: ${seen})`);
			}
			await shoot(scene.file);
		}
		page.close();
	} finally {
		chromium.kill();
	}
}

main().catch((error) => {
	console.error(`[editor-screenshots] ${error.message}`);
	process.exit(1);
});
