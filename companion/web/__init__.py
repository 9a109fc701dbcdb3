"""What the pages and the API share: error mapping, messages, forms, rights, presenters."""
