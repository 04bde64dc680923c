#!/usr/bin/env node
// Pictures for the README, taken from a real n8n with the package: start `npm run demo`, then
//   CHROMIUM=/usr/bin/chromium <Node 22+> scripts/screenshots.js
// (Node 22+ for its built-in WebSocket; the demo's cached Node 24 will do). It logs in as the
// demo's owner, opens each view in headless Chromium through the DevTools protocol, and writes
// PNGs to .github/images/: outside the package (`files` lists dist only) and outside `n8n-node
// build`'s copy of every **/*.{png,svg} (it skips dot-folders), so both builds ship the same files.
'use strict';
const { spawn } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const N8N = process.env.N8N_URL || 'http://127.0.0.1:5678';
const CHROMIUM = process.env.CHROMIUM || 'chromium';
const OUT = join(__dirname, '..', '.github', 'images');
const DEBUG_PORT = Number(process.env.DEBUG_PORT || 9333);
const LOGIN = { emailOrLdapLoginId: 'demo@example.com', password: 'Demo-Passw0rd' };
const BROWSER_ID = 'screenshots';

/** What to picture: a workflow, optionally one node's panel open. */
const VIEWS = [
	{ file: 'generation-finished-post.png', workflow: 'scExampleTrigger' },
	{ file: 'post-create-panel.png', workflow: 'scExampleTrigger', node: 'post-to-x-and-linkedin' },
	{ file: 'start-generation-panel.png', workflow: 'scExampleGenPost', node: 'generate-slideshow' },
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function login() {
	const response = await fetch(`${N8N}/rest/login`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'browser-id': BROWSER_ID },
		body: JSON.stringify(LOGIN),
	});
	if (!response.ok) throw new Error(`login: ${response.status} (is the demo running?)`);
	const cookie = /n8n-auth=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
	if (!cookie) throw new Error('login: no n8n-auth cookie');
	return cookie;
}

/** A DevTools session on a new page. */
async function openPage() {
	for (let attempt = 0; attempt < 50; attempt++) {
		try {
			const version = await (await fetch(`http://127.0.0.1:${DEBUG_PORT}/json/version`)).json();
			const socket = new WebSocket(version.webSocketDebuggerUrl);
			await new Promise((resolve, reject) => {
				socket.onopen = resolve;
				socket.onerror = reject;
			});
			let id = 0;
			const pending = new Map();
			socket.onmessage = (event) => {
				const message = JSON.parse(String(event.data));
				if (message.id && pending.has(message.id)) {
					pending.get(message.id)(message);
					pending.delete(message.id);
				}
			};
			const send = (method, params = {}, sessionId) =>
				new Promise((resolve, reject) => {
					const messageId = ++id;
					pending.set(messageId, (message) =>
						message.error ? reject(new Error(message.error.message)) : resolve(message.result),
					);
					socket.send(JSON.stringify({ id: messageId, method, params, sessionId }));
				});
			const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
			const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
			return {
				call: (method, params) => send(method, params, sessionId),
				close: () => socket.close(),
			};
		} catch {
			await sleep(200);
		}
	}
	throw new Error('Chromium did not start');
}

/** Headless Chromium with its DevTools port open; kill() it when done. */
function startChromium() {
	return spawn(
		CHROMIUM,
		[
			'--headless=new',
			'--no-sandbox',
			'--disable-gpu',
			`--remote-debugging-port=${DEBUG_PORT}`,
			'--window-size=1440,900',
			'about:blank',
		],
		{ stdio: 'ignore' },
	);
}

/** A 1440×900 page signed in to the demo's n8n as its owner. */
async function signedInPage(cookie) {
	const page = await openPage();
	await page.call('Network.enable');
	await page.call('Page.enable');
	await page.call('Emulation.setDeviceMetricsOverride', {
		width: 1440,
		height: 900,
		deviceScaleFactor: 1,
		mobile: false,
	});
	const host = new URL(N8N).hostname;
	await page.call('Network.setCookie', {
		name: 'n8n-auth',
		value: cookie,
		domain: host,
		path: '/',
	});
	// n8n ties the session to the browser id the login sent: the page must send the same one from
	// its first request, or n8n ends the session (and the editor opens read-only or signed out).
	await page.call('Page.addScriptToEvaluateOnNewDocument', {
		source: `localStorage.setItem('n8n-browserId', '${BROWSER_ID}')`,
	});
	return page;
}

/** Writes what the page shows now to a PNG. */
async function capture(page, path) {
	const { data } = await page.call('Page.captureScreenshot', { format: 'png' });
	writeFileSync(path, Buffer.from(data, 'base64'));
}

async function main() {
	mkdirSync(OUT, { recursive: true });
	const cookie = await login();
	const chromium = startChromium();
	try {
		const page = await signedInPage(cookie);
		for (const view of VIEWS) {
			const path = `/workflow/${view.workflow}${view.node ? `/${view.node}` : ''}`;
			await page.call('Page.navigate', { url: `${N8N}${path}` });
			// Wait for the canvas (and the panel) to be drawn: the event, not a fixed sleep.
			const ready = view.node ? '[data-test-id="ndv"]' : '[data-test-id="canvas-node"]';
			for (let tries = 0; tries < 150; tries++) {
				const { result } = await page.call('Runtime.evaluate', {
					expression: `Boolean(document.querySelector('${ready}'))`,
				});
				if (result.value) break;
				await sleep(200);
			}
			if (view.click) {
				// A real mouse click where the button is (the editor's buttons listen for pointer events).
				const { result } = await page.call('Runtime.evaluate', {
					returnByValue: true,
					expression: `(() => { const el = [...document.querySelectorAll('button, [role=button], div, span')].reverse().find((e) => e.textContent.trim() === ${JSON.stringify(view.click)}); if (!el) return null; el.scrollIntoView({ block: 'center', behavior: 'instant' }); return true; })()`,
				});
				await sleep(500);
				const { result: at } = await page.call('Runtime.evaluate', {
					returnByValue: true,
					expression: `(() => { const el = [...document.querySelectorAll('button')].find((e) => e.textContent.trim() === ${JSON.stringify(view.click)}); if (!el) return null; const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
				});
				result.value = at.value;
				if (result.value) {
					for (const type of ['mousePressed', 'mouseReleased'])
						await page.call('Input.dispatchMouseEvent', {
							type,
							x: result.value.x,
							y: result.value.y,
							button: 'left',
							clickCount: 1,
						});
					await sleep(3000); // the new row loads its list
				}
			}
			await sleep(1500); // fonts and icons settle
			await capture(page, join(OUT, view.file));
			console.log(`[screenshots] ${view.file}`);
		}
		page.close();
	} finally {
		chromium.kill();
	}
}

module.exports = { N8N, BROWSER_ID, sleep, login, startChromium, signedInPage, capture };

if (require.main === module)
	main().catch((error) => {
		console.error(`[screenshots] ${error.message}`);
		process.exit(1);
	});
