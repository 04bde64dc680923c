import { createHash } from 'crypto';

/**
 * The trigger's one memory, for both families: 48-bit hashes, base64, newest first; the oldest
 * give way. A new key mistaken for a held one: n / 2^48 with n held (docs/trigger.md, "Limits").
 */
export const HASH_BYTES = 6;

/** 48-bit hash of a key (the first bytes of its MD5: spread, not secrecy, is what matters here). */
export function keyHash(key: string): number {
	return createHash('md5').update(key).digest().readUIntBE(0, HASH_BYTES);
}

/** A short text hash (for the account and for telling two saved states apart). */
export function textHash(text: string): string {
	return createHash('md5').update(text).digest('base64url').slice(0, 16);
}

export class KeyMemory {
	private readonly order: number[];
	private readonly set: Set<number>;

	/** From its base64 form or its hashes, newest first (a hash held twice counts once). */
	constructor(encoded: string | number[] = '') {
		this.set = new Set(typeof encoded === 'string' ? decoded(encoded) : encoded);
		this.order = [...this.set];
	}

	has(key: string): boolean {
		return this.set.has(keyHash(key));
	}

	get size(): number {
		return this.order.length;
	}

	/** A new memory: these keys (newest first) on top, then the rest of this one, in its order. */
	withOnTop(newestFirst: Iterable<string>): KeyMemory {
		return new KeyMemory([...[...newestFirst].map(keyHash), ...this.order]);
	}

	/** Remembers a key as the newest (no-op when it is held). */
	add(key: string): void {
		const hash = keyHash(key);
		if (this.set.has(hash)) return;
		this.set.add(hash);
		this.order.unshift(hash);
	}

	/** Forgets a key (no-op when it is not held). */
	delete(key: string): void {
		const hash = keyHash(key);
		if (!this.set.delete(hash)) return;
		this.order.splice(this.order.indexOf(hash), 1);
	}

	/** The newest `count` hashes, base64. */
	encode(count: number): string {
		const kept = this.order.slice(0, Math.max(0, count));
		const bytes = Buffer.alloc(kept.length * HASH_BYTES);
		kept.forEach((hash, index) => bytes.writeUIntBE(hash, index * HASH_BYTES, HASH_BYTES));
		return bytes.toString('base64');
	}
}

function decoded(encoded: string): number[] {
	const bytes = Buffer.from(encoded, 'base64');
	const count = Math.floor(bytes.length / HASH_BYTES);
	return Array.from({ length: count }, (_, index) =>
		bytes.readUIntBE(index * HASH_BYTES, HASH_BYTES),
	);
}

/** Hashes that fit in `bytes` characters of base64 (6 bytes take 8 characters). */
export function hashesThatFit(bytes: number): number {
	return Math.max(0, Math.floor(bytes / ((HASH_BYTES / 3) * 4)) - 1);
}
