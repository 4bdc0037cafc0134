"""Post-processing of a run's history: what it says once the steps are done.

- :mod:`~rocking_contact.post.references`: scalar quantities of histories and their
  comparison with references; the plain-text tables (:func:`~.references.text_table`);
- :mod:`~rocking_contact.post.grading`: a run graded against its case's references;
- :mod:`~rocking_contact.post.collisions`: a rocking block's collisions and their rigid
  references; :mod:`~rocking_contact.post.collision_warnings`: why a collision a reference
  asks for has no value;
- :mod:`~rocking_contact.post.impacts`: a discrete run's shock impacts;
- :mod:`~rocking_contact.post.energy`: a block run's energy balance and its warnings;
- :mod:`~rocking_contact.post.penetration`, :mod:`~rocking_contact.post.iterations`,
  :mod:`~rocking_contact.post.peaks`: the deepest penetration, the solver's effort per
  step, the peaks of a sampled signal.

The plots are :mod:`rocking_contact.viz`'s; what a run prints is
:mod:`rocking_contact.summary`'s.
"""
