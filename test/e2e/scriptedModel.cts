/**
 * An OpenAI-compatible chat model that follows a script: no real model is reachable here, and a
 * script makes an agent's calls, and what it receives back, exact. n8n's OpenAI Chat Model (with
 * "Use Responses API" off) posts to `{base}/chat/completions`; each answer is the script's next
 * tool call, chosen by how many tool results the conversation holds so far, then a final text.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
	/** The tool's name as n8n offers it, or a part of it ("Create_a_post"). */
	tool: string;
	args: Record<string, unknown>;
}

export interface ChatMessage {
	role: string;
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: unknown };
	}>;
	stream?: boolean;
}

export class ScriptedModel {
	/** Every request n8n sent, in order. */
	readonly requests: ChatRequest[] = [];
	private server?: Server;

	constructor(
		private readonly script: ToolCall[],
		private readonly finalText: string,
	) {}

	async listen(): Promise<string> {
		this.server = createServer((request, response) => {
			void this.answer(request).then(
				({ status, body, stream }) => {
					if (stream) {
						response.writeHead(200, { 'Content-Type': 'text/event-stream' });
						for (const chunk of stream) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
						response.end('data: [DONE]\n\n');
						return;
					}
					response.writeHead(status, { 'Content-Type': 'application/json' });
					response.end(JSON.stringify(body));
				},
				(error: Error) => {
					response.writeHead(500, { 'Content-Type': 'application/json' });
					response.end(JSON.stringify({ error: { message: error.message } }));
				},
			);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
	}

	async close(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}

	/**
	 * What each tool call returned to the model, in the script's order: the tool message's text,
	 * with a failed call's error given as its message (n8n sends `[{"error": "…"}]`).
	 */
	toolResults(): string[] {
		const last = this.requests.at(-1);
		return (last?.messages ?? [])
			.filter((message) => message.role === 'tool')
			.map((message) => decoded(textOf(message.content)));
	}

	/** The tool names n8n offered the model. */
	toolNames(): string[] {
		return (this.requests[0]?.tools ?? []).map((tool) => tool.function.name);
	}

	private async answer(
		request: IncomingMessage,
	): Promise<{ status: number; body?: unknown; stream?: unknown[] }> {
		if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions'))
			return { status: 404, body: { error: { message: `not scripted: ${request.url}` } } };
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
		this.requests.push(body);
		const done = body.messages.filter((message) => message.role === 'tool').length;
		const step = this.script[done];
		const offered = (body.tools ?? []).map((tool) => tool.function.name);
		const call = step && {
			id: `call_${done + 1}`,
			type: 'function',
			function: {
				name: offered.find((name) => name.includes(step.tool)) ?? step.tool,
				arguments: JSON.stringify(step.args),
			},
		};
		const message = call
			? { role: 'assistant', content: null, tool_calls: [call] }
			: { role: 'assistant', content: this.finalText };
		const finish = call ? 'tool_calls' : 'stop';
		const meta = { id: `chatcmpl-${done}`, created: 0, model: body.model };
		if (body.stream) {
			const delta = call
				? { role: 'assistant', tool_calls: [{ index: 0, ...call }] }
				: { role: 'assistant', content: this.finalText };
			return {
				status: 200,
				stream: [
					{
						...meta,
						object: 'chat.completion.chunk',
						choices: [{ index: 0, delta, finish_reason: null }],
					},
					{
						...meta,
						object: 'chat.completion.chunk',
						choices: [{ index: 0, delta: {}, finish_reason: finish }],
					},
				],
			};
		}
		return {
			status: 200,
			body: {
				...meta,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish }],
				usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
			},
		};
	}
}

function decoded(text: string): string {
	try {
		const value: unknown = JSON.parse(text);
		const errors = Array.isArray(value) ? value.map((entry) => entry?.error) : [];
		if (errors.length > 0 && errors.every((error) => typeof error === 'string'))
			return errors.join('\n');
		return typeof value === 'string' ? value : JSON.stringify(value);
	} catch {
		return text;
	}
}

function textOf(content: ChatMessage['content']): string {
	if (typeof content === 'string') return content;
	return (content ?? []).map((part) => part.text ?? '').join('');
}
