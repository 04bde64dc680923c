// n8n-core logs node errors through its own logger; the tests assert on errors, not on logs.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'silent';
