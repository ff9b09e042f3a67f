package dev.pagantic.memory.tck;

import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.FileConversationStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileConversationStoreContractTest extends DurableConversationStoreContract {

    @TempDir
    Path directory;

    @Override
    protected ConversationStore createStore() {
        return FileConversationStore.open(directory);
    }

    @Override
    protected ConversationStore reopenStore() {
        return FileConversationStore.open(directory);
    }
}
