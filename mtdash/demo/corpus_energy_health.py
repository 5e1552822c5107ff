# ruff: noqa: E501  (one sentence per line is easier to proofread than wrapped text)
"""Demo corpus data: documents ``news-energy-01`` and ``news-health-02``.

Original news-style text written for mtdash (not taken from any published
corpus). The format is parsed by :mod:`mtdash.demo.corpus`:

* ``== <document id>`` starts a document;
* each segment is a block of six lines separated from the next by a blank
  line: ``fr:`` the French source, then ``A:`` to ``E:`` five independent
  English translations by five different translators.
"""

DOCUMENTS_TEXT = """
== news-energy-01

fr: Le parc éolien en mer de la baie de Saint-Brieuc a produit ses premiers kilowattheures mardi matin, avec plusieurs mois de retard.
A: The offshore wind farm in the bay of Saint-Brieuc produced its first kilowatt-hours on Tuesday morning, several months behind schedule.
B: On Tuesday morning, the Saint-Brieuc bay offshore wind farm generated its first kilowatt-hours, months later than planned.
C: Several months late, the wind farm off the coast of Saint-Brieuc bay delivered its first kilowatt-hours of power on Tuesday morning.
D: The Saint-Brieuc Bay offshore wind farm began producing electricity on Tuesday morning, several months behind its original timetable.
E: The offshore wind park in Saint-Brieuc bay generated its first kilowatt-hours on Tuesday morning, after a delay of several months.

fr: Les 62 éoliennes, installées à seize kilomètres des côtes, doivent à terme alimenter l'équivalent de 835 000 habitants.
A: The 62 turbines, installed sixteen kilometres off the coast, are eventually expected to supply the equivalent of 835,000 residents.
B: Located sixteen kilometres from the shore, the 62 wind turbines should ultimately power the equivalent of 835,000 people.
C: Once fully running, the 62 turbines standing sixteen kilometres offshore are meant to provide electricity for the equivalent of 835,000 inhabitants.
D: In the long run, the 62 wind turbines, set up 16 km from the coastline, are supposed to meet the needs of the equivalent of 835,000 residents.
E: The 62 wind turbines, which stand sixteen kilometres off the coast, will eventually supply power to the equivalent of 835,000 inhabitants.

fr: Le chantier a coûté environ 2,4 milliards d'euros, un montant que le consortium juge « raisonnable » au regard des prix actuels.
A: The project cost around €2.4 billion, an amount the consortium considers "reasonable" given current prices.
B: Construction cost roughly 2.4 billion euros, a sum that the consortium describes as "reasonable" in light of today's prices.
C: At about 2.4 billion euros, the cost of the works is "reasonable" in view of current prices, according to the consortium.
D: The works came to approximately €2.4bn, a figure the consortium regards as "reasonable" by the standards of present-day prices.
E: The construction site cost about 2.4 billion euros, which the consortium deems "reasonable" in view of current prices.

fr: Pour les pêcheurs de la région, l'arrivée des turbines reste cependant une source d'inquiétude.
A: For the region's fishermen, however, the arrival of the turbines remains a source of concern.
B: Local fishermen, though, are still worried about the arrival of the turbines.
C: The turbines' arrival nevertheless continues to worry fishing crews in the area.
D: However, for fishers in the region, the turbines coming in are still a cause for anxiety.
E: For fishermen in the area, however, the arrival of the turbines is still a cause for worry.

fr: « Nous avons perdu une partie de nos zones de pêche à la coquille Saint-Jacques », explique Yannick Le Dréan, patron d'un chalutier d'Erquy.
A: "We have lost part of our scallop fishing grounds," explains Yannick Le Dréan, the skipper of a trawler from Erquy.
B: "Some of our scallop grounds are gone," says Yannick Le Dréan, who runs a trawler out of Erquy.
C: Yannick Le Dréan, captain of an Erquy trawler, explains: "We've lost some of the areas where we used to fish for scallops."
D: "Part of our scallop-fishing area has been taken from us," said Yannick Le Dréan, owner of a trawler based in Erquy.
E: "We lost a share of our scallop fishing zones," says Yannick Le Dréan, who skippers a trawler in Erquy.

fr: Les associations de protection de l'environnement demandent un suivi indépendant de l'impact des travaux sur les oiseaux marins et les mammifères.
A: Environmental groups are demanding independent monitoring of how the construction affects seabirds and mammals.
B: Conservation associations want the impact of the work on sea birds and mammals to be tracked independently.
C: Environmental protection associations are asking for an independent follow-up of the project's effects on marine birds and mammals.
D: Groups that defend the environment call for the impact of the works on seabirds and mammals to be monitored by an independent body.
E: Environmental protection organisations are requesting independent monitoring of the works' impact on seabirds and mammals.

fr: Selon la préfecture, les relevés effectués depuis 2021 ne montrent pas de baisse significative des populations.
A: According to the prefecture, measurements taken since 2021 show no significant decline in populations.
B: The prefecture says surveys carried out since 2021 do not show any significant drop in numbers.
C: Data collected since 2021 reveal no meaningful fall in the populations, according to the prefecture.
D: According to the local prefecture, the readings taken since 2021 have not shown any significant decrease in animal populations.
E: The prefecture states that the records made since 2021 show no significant reduction in the populations.

fr: Le prix de l'électricité produite sera garanti pendant vingt ans, à 155 euros le mégawattheure, soit nettement plus que le tarif du nucléaire.
A: The price of the electricity produced will be guaranteed for twenty years at 155 euros per megawatt-hour, well above the price of nuclear power.
B: The power generated will have a guaranteed price of €155 per megawatt-hour for twenty years, significantly more than the nuclear tariff.
C: For two decades, the electricity will be sold at a guaranteed €155 a megawatt-hour, which is considerably higher than the rate for nuclear energy.
D: A guaranteed price of 155 euros per MWh has been set for twenty years, clearly higher than what nuclear power costs.
E: The electricity it generates will have a guaranteed price of 155 euros per megawatt-hour for twenty years, markedly more than the nuclear rate.

== news-health-02

fr: La campagne de vaccination contre la grippe débute ce mardi dans les pharmacies, deux semaines plus tôt que l'an dernier.
A: The flu vaccination campaign begins this Tuesday in pharmacies, two weeks earlier than last year.
B: Pharmacies start giving flu vaccinations this Tuesday, a fortnight earlier than last year.
C: This Tuesday, the influenza vaccination drive gets under way in chemists, two weeks ahead of last year's start.
D: The campaign to vaccinate people against influenza opens on Tuesday at pharmacies, two weeks sooner than it did last year.
E: The flu jab campaign kicks off at pharmacies this Tuesday, two weeks earlier than a year ago.

fr: Les autorités sanitaires visent un taux de couverture de 75 % chez les personnes âgées de plus de 65 ans.
A: Health authorities are aiming for 75% coverage among people over the age of 65.
B: The health authorities want to reach a vaccination rate of 75% among those aged over 65.
C: Public health officials have set a target of 75% coverage for the over-65s.
D: Among people older than 65, the health authorities are targeting a coverage rate of 75 percent.
E: The health authorities are seeking a coverage rate of 75% among people older than 65.

fr: L'hiver dernier, ce taux n'avait atteint que 54 %, un niveau jugé insuffisant par l'Académie de médecine.
A: Last winter, the rate reached only 54%, a level the Academy of Medicine considered insufficient.
B: Last winter the figure was just 54%, which the Academy of Medicine deemed too low.
C: The rate only got to 54% last winter, a level that the Académie de médecine judged inadequate.
D: Only 54% were vaccinated last winter, a level the national Academy of Medicine found unsatisfactory.
E: Last winter this rate stood at a mere 54%, a figure the Academy of Medicine regarded as inadequate.

fr: Au centre hospitalier de Besançon, les urgences ont déjà enregistré une hausse des consultations pour des infections respiratoires.
A: At Besançon hospital, the emergency department has already recorded an increase in visits for respiratory infections.
B: The emergency room at the Besançon hospital centre has already seen more patients coming in with respiratory infections.
C: Besançon hospital's A&E has already registered a rise in consultations for respiratory infections.
D: In Besançon, the hospital's emergency unit is already reporting a growing number of consultations linked to respiratory infections.
E: At the Besançon hospital centre, emergency services have already logged a rise in consultations for respiratory infections.

fr: « Nous manquons de lits et d'infirmiers, et l'épidémie n'a même pas encore vraiment commencé », déplore le docteur Hélène Mercier.
A: "We are short of beds and nurses, and the epidemic hasn't even really started yet," laments Dr Hélène Mercier.
B: "We don't have enough beds or nurses, and the outbreak has not even properly begun," Dr Hélène Mercier complains.
C: Dr Hélène Mercier regrets that "there is a shortage of beds and nurses, and the epidemic has not truly started yet."
D: "Beds and nurses are lacking, and the epidemic isn't really under way yet," said a dismayed Doctor Hélène Mercier.
E: "We lack beds and nursing staff, and the epidemic has not yet really begun," Dr Hélène Mercier deplores.

fr: Le ministère promet le recrutement de 1 200 soignants supplémentaires d'ici à la fin de l'année.
A: The ministry is promising to recruit 1,200 additional healthcare workers by the end of the year.
B: The ministry has pledged to hire 1,200 more carers before the year is out.
C: By the end of the year, 1,200 extra health workers will be taken on, the ministry promises.
D: The health ministry promises that 1,200 additional nursing staff will be recruited by year's end.
E: The ministry pledges the recruitment of 1,200 additional care staff by the end of the year.

fr: Les syndicats estiment toutefois que ces embauches ne compenseront pas les départs à la retraite.
A: Unions believe, however, that these hires will not make up for retirements.
B: However, the unions say the new recruits will not offset the staff who are retiring.
C: The trade unions, though, argue that this hiring will fail to compensate for people leaving on retirement.
D: According to the unions, however, these recruitments will not be enough to replace those retiring.
E: Unions nevertheless reckon that these new hires will not compensate for departures into retirement.

fr: En attendant, l'hôpital a rouvert une aile fermée depuis 2019 afin d'accueillir une trentaine de patients de plus.
A: In the meantime, the hospital has reopened a wing that had been closed since 2019 to take in around thirty more patients.
B: Meanwhile, the hospital has reopened a wing shut since 2019 so that it can admit about thirty extra patients.
C: For now, a wing closed since 2019 has been reopened so the hospital can accommodate some thirty additional patients.
D: Until then, the hospital has brought back into service a wing closed in 2019, making room for roughly thirty more patients.
E: Pending that, the hospital has reopened a wing, shut since 2019, so that some thirty more patients can be admitted.
"""
