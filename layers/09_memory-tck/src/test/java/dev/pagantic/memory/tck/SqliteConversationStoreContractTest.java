package dev.pagantic.memory.tck;

import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.JdbcConversationStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The JDBC store on its embedded database, SQLite: each store instance has its own connection to the file. */
class SqliteConversationStoreContractTest extends SharedConversationStoreContract {

    @TempDir
    Path directory;

    private Path file() {
        return directory.resolve("db").resolve("sessions.sqlite");
    }

    @Override
    protected ConversationStore createStore() {
        return JdbcConversationStore.embedded(file());
    }

    @Override
    protected ConversationStore reopenStore() {
        return JdbcConversationStore.embedded(file());
    }

    @Override
    protected ConversationStore openAnotherStore() {
        return JdbcConversationStore.embedded(file());
    }
}
