"""Records between machines: a GPU capture packed and brought back, the records of shards merged.

``cuda_probe`` asks whether an interpreter's torch sees a CUDA device before a capture starts; ``archive`` packs
the records a run made; ``unpack`` checks a capture's archive member by member before any record reaches
``records/``; ``merge`` joins the record folders of several shards, each run exactly once. Standard library only:
the first two run on the GPU machine.
"""
