"""Reading a photo of Quiddler cards: the picture checked and kept (``photo``), the OCR
model loaded once per process when first used (``model``), and the cards read from a
picture (``cards``). Beside game/ and lexicon/ in the import layers: it imports game/ only.
"""
