package dev.pagantic.memory.tck;

import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.InMemoryConversationStore;

class InMemoryConversationStoreContractTest extends ConversationStoreContract {

    @Override
    protected ConversationStore createStore() {
        return new InMemoryConversationStore();
    }
}
