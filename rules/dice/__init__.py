"""The dice engine: tokenizer → parser → AST (LRU-cached) → evaluator → result tree."""
