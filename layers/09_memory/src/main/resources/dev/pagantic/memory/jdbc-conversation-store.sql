-- The tables of pagantic's JdbcConversationStore, schema version 1. Standard SQL, run as is on PostgreSQL and SQLite.
-- The store runs this script itself when it is built (createSchema, the default); a database whose tables are
-- managed by a migration tool or a DBA runs it once instead, and builds the store with createSchema(false).
-- Every statement ends with a semicolon at the end of a line.

-- One row per session. message_count is the number of messages in the conversation and the session's version:
-- an append commits only if it still finds the count it read (optimistic concurrency). Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS pagantic_session (
    session_id    VARCHAR(80) NOT NULL PRIMARY KEY,
    message_count BIGINT      NOT NULL,
    created_at    BIGINT      NOT NULL,
    updated_at    BIGINT      NOT NULL
);

-- The conversation: message number seq (0, 1, 2, ...) of a session, as the JSON object
-- {"role", "content", "toolCalls": [{"id", "name", "arguments"}], "toolCallId", "name"} (empty fields left out).
CREATE TABLE IF NOT EXISTS pagantic_message (
    session_id VARCHAR(80) NOT NULL REFERENCES pagantic_session (session_id) ON DELETE CASCADE,
    seq        BIGINT      NOT NULL,
    role       VARCHAR(16) NOT NULL,
    message    TEXT        NOT NULL,
    PRIMARY KEY (session_id, seq)
);

-- The session state: one JSON value per key.
CREATE TABLE IF NOT EXISTS pagantic_state (
    session_id  VARCHAR(80) NOT NULL REFERENCES pagantic_session (session_id) ON DELETE CASCADE,
    state_key   TEXT        NOT NULL,
    state_value TEXT        NOT NULL,
    PRIMARY KEY (session_id, state_key)
);
