"""The judge's wire form: the infraction catalogue, assessments and time-limit rulings, as requests and answers."""
