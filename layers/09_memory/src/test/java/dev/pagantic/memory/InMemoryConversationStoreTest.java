package dev.pagantic.memory;

class InMemoryConversationStoreTest extends ConversationStoreContract {

    @Override
    protected ConversationStore createStore() {
        return new InMemoryConversationStore();
    }
}
